//===- VerifyStep.cpp - Verify a candidate from a pass --------------------===//

#include "QiMeng/Verifier/VerifyStep.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

extern char **environ;

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
  std::optional<double> median = object->getNumber("median_ms");
  if (!median)
    return std::nullopt;
  timing.medianMs = *median;
  timing.minMs = object->getNumber("min_ms").value_or(0);
  timing.meanMs = object->getNumber("mean_ms").value_or(0);
  timing.stddevMs = object->getNumber("stddev_ms").value_or(0);
  timing.maxMs = object->getNumber("max_ms").value_or(0);
  timing.runs = object->getInteger("runs").value_or(0);
  timing.warmup = object->getInteger("warmup").value_or(0);
  timing.flushBytes = object->getInteger("l2_flush_bytes").value_or(0);
  return timing;
}

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

/// A directory of its own that goes away with this object.
namespace {
class TempDir {
public:
  std::error_code create() {
    return llvm::sys::fs::createUniqueDirectory("qimeng-step", dir);
  }
  ~TempDir() {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
  }
  std::string in(llvm::StringRef name) const {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

private:
  llvm::SmallString<128> dir;
};
} // namespace

StepResult mlir::qimeng::verifyStep(ModuleOp candidate, ModuleOp reference,
                                    llvm::StringRef entry,
                                    const StepOptions &options) {
  StepResult result;
  TempDir dir;
  if (std::error_code ec = dir.create()) {
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
  TempDir dir;
  if (std::error_code ec = dir.create())
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
      llvm::formatv("--seed={0}", options.seed).str(),
      llvm::formatv("--timeout={0}", options.timeoutSeconds).str(),
      "--report=" + reportPath};
  if (options.tolerance) {
    args.push_back(llvm::formatv("--atol={0}", options.tolerance->atol));
    args.push_back(llvm::formatv("--rtol={0}", options.tolerance->rtol));
  }
  if (options.timing) {
    args.push_back("--time");
    args.push_back(llvm::formatv("--warmup={0}", options.timing->warmup));
    args.push_back(llvm::formatv("--runs={0}", options.timing->runs));
    if (!options.timing->flushL2)
      args.push_back("--no-l2-flush");
    if (!options.timeReference)
      args.push_back("--no-reference-timing");
  }
  SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(logPath), llvm::StringRef(logPath)};
  // The child sees only the chosen GPU.
  std::optional<SmallVector<llvm::StringRef>> environment;
  std::vector<std::string> variables;
  if (options.device) {
    for (char **var = environ; *var; ++var)
      if (!llvm::StringRef(*var).starts_with("CUDA_VISIBLE_DEVICES="))
        variables.push_back(*var);
    variables.push_back("CUDA_VISIBLE_DEVICES=" +
                        std::to_string(*options.device));
    environment.emplace(variables.begin(), variables.end());
  }
  std::string execError;
  // qimeng-run enforces the limit on its child; this one is the backstop.
  int code = llvm::sys::ExecuteAndWait(
      tool, argRefs,
      environment ? std::optional<llvm::ArrayRef<llvm::StringRef>>(*environment)
                  : std::nullopt,
      redirects, options.timeoutSeconds + 60, 0, &execError);
  if (code == -1)
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
    std::string log;
    if (auto text = llvm::MemoryBuffer::getFile(logPath))
      log = llvm::StringRef((*text)->getBuffer()).trim().rsplit('\n').second;
    return couldNotRun(llvm::formatv("{0} exited with {1} and no report{2}",
                                     tool, code, log.empty() ? "" : ": " + log)
                           .str());
  }
  result.report = std::move(*parsed->getAsObject());
  llvm::StringRef status = result.report.getString("status").value_or("error");
  result.reason = result.report.getString("message").value_or("").str();
  if (const llvm::json::Object *verify = result.report.getObject("verify"))
    if (const llvm::json::Object *timing = verify->getObject("timing")) {
      result.candidateTiming = timingFromJSON(timing->get("candidate"));
      result.referenceTiming = timingFromJSON(timing->get("reference"));
    }
  if (status == "pass") {
    result.status = StepStatus::Pass;
    result.reason.clear();
  } else if (status == "fail" || status == "error" || status == "crash" ||
             status == "timeout") {
    result.status = StepStatus::Fail;
  } else {
    result.status = StepStatus::CouldNotRun;
  }
  return result;
}
