//===- VerifyStep.cpp - Verify a candidate from a pass --------------------===//

#include "QiMeng/Verifier/VerifyStep.h"
#include "QiMeng/Verifier/Protocol.h"

#include "QiMeng/Support/RunProcess.h"
#include "QiMeng/Support/TempDirectory.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qimeng;

llvm::StringRef mlir::qimeng::stringifyStepStatus(StepStatus status) {
  switch (status) {
  case StepStatus::Pass:
    return "pass";
  case StepStatus::Fail:
    return "fail";
  case StepStatus::CouldNotRun:
    return "could-not-run";
  }
  llvm_unreachable("unknown step status");
}

std::optional<Timing>
mlir::qimeng::timingFromJSON(const llvm::json::Value *value) {
  const llvm::json::Object *object = value ? value->getAsObject() : nullptr;
  if (!object)
    return std::nullopt;
  Timing timing;
  std::optional<double> median = object->getNumber(protocol::kMedianMsKey);
  if (!median)
    return std::nullopt;
  timing.medianMs = *median;
  timing.minMs = object->getNumber(protocol::kMinMsKey).value_or(0);
  timing.meanMs = object->getNumber(protocol::kMeanMsKey).value_or(0);
  timing.stddevMs = object->getNumber(protocol::kStddevMsKey).value_or(0);
  timing.maxMs = object->getNumber(protocol::kMaxMsKey).value_or(0);
  timing.runs = object->getInteger(protocol::kRunsKey).value_or(0);
  timing.warmup = object->getInteger(protocol::kWarmupKey).value_or(0);
  timing.flushBytes = object->getInteger(protocol::kFlushBytesKey).value_or(0);
  return timing;
}

/// Seconds a batch's qimeng-run may take beyond its candidates' limits.
static constexpr unsigned kBatchSetupSeconds = 60;

/// The qimeng-run to call (see StepOptions::runTool), or an empty string.
static std::string findRunTool(const StepOptions &options) {
  if (!options.runTool.empty())
    return options.runTool;
  if (const char *fromEnv = std::getenv("QIMENG_RUN"); fromEnv && *fromEnv)
    return fromEnv;
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable("qimeng", &anchor);
  if (!self.empty()) {
    llvm::SmallString<256> beside(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(beside, "qimeng-run");
    if (llvm::sys::fs::can_execute(beside))
      return std::string(beside);
  }
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("qimeng-run"))
    return *onPath;
  return {};
}

static llvm::Error writeModule(ModuleOp module, llvm::StringRef path) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    module->print(os, OpPrintingFlags().enableDebugInfo(false));
    return llvm::Error::success();
  });
}

/// The options of a check: tolerance, reference and timing.
static void appendCheckOptions(const StepOptions &options,
                               SmallVectorImpl<std::string> &args) {
  if (options.tolerance) {
    args.push_back(llvm::formatv("--atol={0}", options.tolerance->atol));
    args.push_back(llvm::formatv("--rtol={0}", options.tolerance->rtol));
  }
  if (options.referenceOn != ReferenceOn::Auto)
    args.push_back(options.referenceOn == ReferenceOn::Cpu
                       ? "--reference-on=cpu"
                       : "--reference-on=gpu");
  if (options.timing) {
    args.push_back("--time");
    args.push_back(llvm::formatv("--warmup={0}", options.timing->warmup));
    args.push_back(llvm::formatv("--runs={0}", options.timing->runs));
    if (!options.timing->flushL2)
      args.push_back("--no-l2-flush");
    if (!options.timeReference)
      args.push_back("--no-reference-timing");
  }
}

/// A qimeng-run report's status as a step's verdict: the candidate's fault
/// (a mismatch, its own error, a crash or time-out) or nothing known.
static StepStatus getStepStatus(llvm::StringRef status) {
  using namespace protocol;
  if (status == kPass)
    return StepStatus::Pass;
  if (status == kFail || status == kError || status == kCrash ||
      status == kTimeout)
    return StepStatus::Fail;
  return StepStatus::CouldNotRun;
}

/// The timings of `result`'s report ("verify": {"timing": ...}), if any.
static void readTimings(StepResult &result) {
  const llvm::json::Object *verify =
      result.report.getObject(protocol::kVerifyKey);
  const llvm::json::Object *timing =
      verify ? verify->getObject(protocol::kTimingKey) : nullptr;
  if (!timing)
    return;
  result.candidateTiming = timingFromJSON(timing->get("candidate"));
  result.referenceTiming = timingFromJSON(timing->get("reference"));
}

/// ": <the last line of the file>", or "" when it is empty or missing.
static std::string lastLogLine(StringRef path) {
  auto text = llvm::MemoryBuffer::getFile(path);
  if (!text)
    return "";
  StringRef trimmed = StringRef((*text)->getBuffer()).trim();
  StringRef last = trimmed.rsplit('\n').second;
  if (last.empty())
    last = trimmed;
  return last.empty() ? "" : ": " + last.str();
}

StepResult mlir::qimeng::verifyStep(ModuleOp candidate, ModuleOp reference,
                                    llvm::StringRef entry,
                                    const StepOptions &options) {
  StepResult result;
  TempDirectory dir;
  if (std::error_code ec = dir.create("qimeng-step")) {
    result.reason = "cannot create a temporary directory: " + ec.message();
    return result;
  }
  std::string candidatePath = dir.in("candidate.mlir"),
              referencePath = dir.in("reference.mlir");
  for (auto [module, path] : {std::make_pair(candidate, candidatePath),
                              std::make_pair(reference, referencePath)})
    if (llvm::Error err = writeModule(module, path)) {
      result.reason = llvm::toString(std::move(err));
      return result;
    }
  return verifyStepFiles(candidatePath, referencePath, entry, options);
}

StepResult mlir::qimeng::verifyStepFiles(llvm::StringRef candidatePath,
                                         llvm::StringRef referencePath,
                                         llvm::StringRef entry,
                                         const StepOptions &options) {
  StepResult result;
  auto couldNotRun = [&](const llvm::Twine &why) {
    result.status = StepStatus::CouldNotRun;
    result.reason = why.str();
    return std::move(result);
  };
  std::string tool = findRunTool(options);
  if (tool.empty())
    return couldNotRun("qimeng-run not found (set QIMENG_RUN or put it on "
                       "PATH)");
  // The report and qimeng-run's output, in a directory of their own that
  // goes away however this returns.
  TempDirectory dir;
  if (std::error_code ec = dir.create("qimeng-step"))
    return couldNotRun("cannot create a temporary directory: " + ec.message());
  std::string reportPath = dir.in("report.json"),
              logPath = dir.in("output.log");

  SmallVector<std::string> args = {
      tool,
      candidatePath.str(),
      "--verify",
      "--reference=" + referencePath.str(),
      "--entry=" + entry.str(),
      llvm::formatv("--trials={0}", options.trials).str(),
      llvm::formatv("--seed={0}", options.seed ? *options.seed : drawSeed())
          .str(),
      llvm::formatv("--timeout={0}", options.timeoutSeconds).str(),
      "--report=" + reportPath};
  appendCheckOptions(options, args);
  std::string execError;
  int code = runProcess(tool, args, logPath, options.device,
                        options.timeoutSeconds + 60, &execError);
  if (code == kProcessNotStarted)
    return couldNotRun("cannot run " + tool + ": " + execError);

  auto report = llvm::MemoryBuffer::getFile(reportPath);
  llvm::Expected<llvm::json::Value> parsed =
      report ? llvm::json::parse((*report)->getBuffer())
             : llvm::Expected<llvm::json::Value>(
                   llvm::createStringError("no report"));
  if (!parsed || !parsed->getAsObject()) {
    if (parsed)
      return couldNotRun(tool + " wrote a report that is not an object");
    llvm::consumeError(parsed.takeError());
    // No report: the checker itself died or was killed.
    return couldNotRun(llvm::formatv("{0} exited with {1} and no report{2}",
                                     tool, code, lastLogLine(logPath))
                           .str());
  }
  result.report = std::move(*parsed->getAsObject());
  llvm::StringRef status =
      result.report.getString(protocol::kStatusKey).value_or(protocol::kError);
  result.reason =
      result.report.getString(protocol::kMessageKey).value_or("").str();
  readTimings(result);
  result.status = getStepStatus(status);
  result.noGpu = status == protocol::kNoGpu;
  if (result.status == StepStatus::Pass)
    result.reason.clear();
  return result;
}

std::vector<StepResult>
mlir::qimeng::verifyStepBatch(llvm::ArrayRef<std::string> candidates,
                              llvm::StringRef reference, llvm::StringRef entry,
                              const StepOptions &options) {
  size_t count = candidates.size();
  std::vector<StepResult> results(count);
  // One seed for the whole batch: the reference runs once per seed.
  uint64_t seed = options.seed ? *options.seed : drawSeed();
  auto couldNotRunFrom = [&](size_t from, const llvm::Twine &why) {
    for (size_t i = from; i < count; ++i) {
      results[i].status = StepStatus::CouldNotRun;
      results[i].reason = why.str();
    }
    return results;
  };
  std::string tool = findRunTool(options);
  if (tool.empty())
    return couldNotRunFrom(0, "qimeng-run not found (set QIMENG_RUN or put "
                              "it on PATH)");
  size_t next = 0;
  while (next < count) {
    TempDirectory dir;
    if (std::error_code ec = dir.create("qimeng-step"))
      return couldNotRunFrom(next, "cannot create a temporary directory: " +
                                       ec.message());
    std::string listPath = dir.in("candidates.txt"),
                linesPath = dir.in("candidates.jsonl"),
                reportPath = dir.in("report.json"),
                logPath = dir.in("output.log");
    if (llvm::Error err =
            llvm::writeToOutput(listPath, [&](llvm::raw_ostream &os) {
              for (size_t i = next; i < count; ++i)
                os << candidates[i] << "\n";
              return llvm::Error::success();
            }))
      return couldNotRunFrom(next, llvm::toString(std::move(err)));
    // Each candidate has its own limit (--candidate-timeout); the process
    // has more for its start and the reference's compile.
    unsigned limit =
        options.timeoutSeconds * unsigned(count - next) + kBatchSetupSeconds;
    SmallVector<std::string> args = {
        tool,
        reference.str(),
        "--candidates=" + listPath,
        "--candidates-report=" + linesPath,
        "--entry=" + entry.str(),
        llvm::formatv("--trials={0}", options.trials).str(),
        llvm::formatv("--seed={0}", seed).str(),
        llvm::formatv("--timeout={0}", limit).str(),
        llvm::formatv("--candidate-timeout={0}", options.timeoutSeconds).str(),
        "--report=" + reportPath};
    appendCheckOptions(options, args);
    std::string execError;
    int code =
        runProcess(tool, args, logPath, options.device, limit + 60, &execError);
    if (code == kProcessNotStarted)
      return couldNotRunFrom(next, "cannot run " + tool + ": " + execError);
    // One line per candidate done, in order; a line with status "error"
    // is the candidate that stopped the run.
    size_t done = 0;
    bool stoppedAtLine = false;
    if (auto lines = llvm::MemoryBuffer::getFile(linesPath)) {
      SmallVector<llvm::StringRef> texts;
      (*lines)->getBuffer().split(texts, '\n', -1, false);
      for (llvm::StringRef text : texts) {
        llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
        if (!parsed) {
          llvm::consumeError(parsed.takeError());
          break;
        }
        const llvm::json::Object *line = parsed->getAsObject();
        std::optional<int64_t> index =
            line ? line->getInteger(protocol::kIndexKey) : 0;
        if (!line || !index || *index < 0 || next + size_t(*index) >= count)
          break;
        StepResult &result = results[next + *index];
        llvm::StringRef status =
            line->getString(protocol::kStatusKey).value_or(protocol::kError);
        result.status = getStepStatus(status);
        result.noGpu = status == protocol::kNoGpu;
        result.reason =
            line->getString(protocol::kMessageKey).value_or("").str();
        // The candidate's line is its report (status, message, verify).
        result.report = llvm::json::Object(*line);
        readTimings(result);
        done = size_t(*index) + 1;
        stoppedAtLine = status == protocol::kError;
      }
    }
    if (next + done >= count)
      break;
    // The run stopped before the end: why (the report, else its output).
    std::string status = protocol::kCrash.str(), message;
    if (auto report = llvm::MemoryBuffer::getFile(reportPath)) {
      llvm::Expected<llvm::json::Value> parsed =
          llvm::json::parse((*report)->getBuffer());
      if (parsed && parsed->getAsObject()) {
        status = parsed->getAsObject()
                     ->getString(protocol::kStatusKey)
                     .value_or(protocol::kError)
                     .str();
        message = parsed->getAsObject()
                      ->getString(protocol::kMessageKey)
                      .value_or("")
                      .str();
      } else if (!parsed) {
        llvm::consumeError(parsed.takeError());
      }
    }
    if (message.empty())
      message = llvm::formatv("{0} exited with {1}{2}", tool, code,
                              lastLogLine(logPath))
                    .str();
    if (stoppedAtLine) {
      next += done;
      continue;
    }
    // Only a crash or a time-out is the next candidate's doing; anything
    // else (no GPU, a reference that fails, a tool that stopped early) says
    // nothing about the candidates left.
    bool candidateFault =
        status == protocol::kCrash || status == protocol::kTimeout ||
        code == kProcessKilled || (status == protocol::kError && code == 3);
    if (!candidateFault)
      return couldNotRunFrom(next + done, message);
    // Candidate `next + done` stopped the run (its line may say why).
    StepResult &stopper = results[next + done];
    if (stopper.reason.empty()) {
      stopper.status = StepStatus::Fail;
      stopper.reason = status + ": " + message;
    }
    next += done + 1;
  }
  return results;
}
