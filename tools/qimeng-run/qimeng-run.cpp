//===- qimeng-run.cpp - Compile and run a kernel function on the GPU ------===//
//
//   qimeng-run kernel.mlir [--entry=f] [--seed=N] [--shape=I=AxB]
//              [--input=I=x.npy] [--output-dir=DIR] [--time] [--report=F]
//   qimeng-run kernel.mlir --verify [--reference=orig.mlir] [--trials=N]
//              [--atol=A --rtol=R] [--time] [--report=F]
//
// Compiles the module with the embedded default (--llm-plan, --lower-to-nvvm),
// JITs its host code, builds the entry's arguments from its signature (seeded
// uniform inputs in managed memory, or .npy files), runs it and writes every
// argument and result as .npy (argI.npy, resultI.npy) for NumPy/PyTorch.
// With --verify it checks the outputs against the reference; with --time it
// times with CUDA events (warm-up, L2 flushed). The work runs in a child
// process with a time limit. Exits non-zero with one line on stderr when
// anything fails, including "no CUDA driver/GPU found" on a machine without a
// GPU; --report writes the same outcome as JSON in every case.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/InitAll.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Support/WaitChild.h"
#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/PhaseTimes.h"
#include "QiMeng/Verifier/Protocol.h"
#include "QiMeng/Verifier/Report.h"
#include "QiMeng/Verifier/Runner.h"
#include "QiMeng/Verifier/Verifier.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

llvm::cl::OptionCategory inputOptions("Inputs");
llvm::cl::OptionCategory verificationOptions("Verification");
llvm::cl::OptionCategory timingOptions("Timing");
llvm::cl::OptionCategory candidatesOptions(
    "A batch of candidates against one reference (plan search)");
llvm::cl::OptionCategory processOptions("Process and report");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::cat(inputOptions),
                                     llvm::cl::desc("<input .mlir>"),
                                     llvm::cl::Required);
llvm::cl::opt<std::string> candidatesFile(
    "candidates", llvm::cl::cat(candidatesOptions),
    llvm::cl::desc("Verify (and with --time, time) each lowered module listed "
                   "in this file, one path a line, against the input as the "
                   "reference, compiled and run once per seed for all; one "
                   "JSON line per candidate goes to --candidates-report. "
                   "Stops after the first candidate that cannot run"));
llvm::cl::opt<std::string> candidatesReport(
    "candidates-report", llvm::cl::cat(candidatesOptions),
    llvm::cl::desc("With --candidates: the JSON-lines file to append to"));
llvm::cl::opt<std::string>
    entryName("entry", llvm::cl::cat(inputOptions),
              llvm::cl::desc("Function to run (default: the only public "
                             "function with a body)"));
llvm::cl::opt<uint64_t>
    seed("seed", llvm::cl::cat(inputOptions),
         llvm::cl::desc("Seed of the inputs (default: 0 for a plain run; "
                        "drawn fresh for --verify and --candidates, and "
                        "recorded in the report)"),
         llvm::cl::init(0));
llvm::cl::list<std::string>
    shapes("shape", llvm::cl::cat(inputOptions),
           llvm::cl::desc("Sizes of an argument's dynamic dimensions: "
                          "I=AxB (argument I, in order)"));
llvm::cl::opt<std::string>
    outputDir("output-dir", llvm::cl::cat(inputOptions),
              llvm::cl::desc("Write argI.npy and resultI.npy here"));
llvm::cl::opt<bool> verify(
    "verify", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("Check every output against the reference (the module "
                   "with plain plans) on fresh seeded inputs, with NaN-"
                   "poisoned outputs; exit 1 on a mismatch"));
llvm::cl::opt<std::string> referenceFile(
    "reference", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("With --verify: the original program to check against "
                   "(default: the input itself, with plain plans)"));
llvm::cl::opt<ReferenceOn> referenceOn(
    "reference-on", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("With --verify: where the reference runs"),
    llvm::cl::values(
        clEnumValN(ReferenceOn::Auto, "auto",
                   "the CPU up to 2^28 loop iterations, else the GPU "
                   "(default)"),
        clEnumValN(ReferenceOn::Cpu, "cpu",
                   "the unplanned program as loops on the host"),
        clEnumValN(ReferenceOn::Gpu, "gpu",
                   "the program with plain plans on the GPU")),
    llvm::cl::init(ReferenceOn::Auto));
llvm::cl::opt<bool>
    onCpu("cpu", llvm::cl::cat(verificationOptions),
          llvm::cl::desc("Run the unplanned program on the host (the "
                         "verifier's CPU reference) instead of the GPU; with "
                         "--verify, check what the candidate program "
                         "computes against the reference's, both on the "
                         "host"));
llvm::cl::opt<bool> wideReference(
    "wide-reference", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("With --verify: the reference accumulates its reductions "
                   "in f64 (default on; off compares two programs bit for "
                   "bit with --atol=0 --rtol=0)"),
    llvm::cl::init(true));
llvm::cl::opt<bool> allowTf32(
    "allow-tf32", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("Plan an unplanned input as qimeng-opt --allow-tf32 does "
                   "(f32 matmuls on tensor cores as tf32)"));
llvm::cl::opt<unsigned> trials("trials", llvm::cl::cat(verificationOptions),
                               llvm::cl::desc("Verification trials (seeds "
                                              "seed, seed+1, ...)"),
                               llvm::cl::init(3));
llvm::cl::opt<double>
    absTol("atol", llvm::cl::cat(verificationOptions),
           llvm::cl::desc("Absolute tolerance (default per type, scaled to "
                          "the outputs' size and the reduction length)"));
llvm::cl::opt<double> relTol("rtol", llvm::cl::cat(verificationOptions),
                             llvm::cl::desc("Relative tolerance "
                                            "(default per type)"));
llvm::cl::opt<unsigned> timeout(
    "timeout", llvm::cl::cat(processOptions),
    llvm::cl::desc("Seconds the work may take (it runs in a child process: "
                   "a hang or a crash fails the run, not the caller); 0 runs "
                   "in this process"),
    llvm::cl::init(300));
llvm::cl::opt<unsigned> candidateTimeout(
    "candidate-timeout", llvm::cl::cat(candidatesOptions),
    llvm::cl::desc("With --candidates: seconds each candidate may take; one "
                   "that takes longer (a hanging kernel) is reported as an "
                   "error and the run stops there, as for a fault (0: no "
                   "limit but --timeout)"),
    llvm::cl::init(0));
llvm::cl::list<std::string>
    inputs("input", llvm::cl::cat(inputOptions),
           llvm::cl::desc("Contents of argument I from a .npy file: "
                          "I=path.npy (type must match; gives its "
                          "dynamic sizes)"));
llvm::cl::opt<bool> poison(
    "poison", llvm::cl::cat(verificationOptions),
    llvm::cl::desc("Fill the outputs the function writes and the buffers it "
                   "allocates (its returned results) with poison (NaN, -1) "
                   "before the run, so what a kernel leaves unwritten shows "
                   "in the .npy files"));
llvm::cl::opt<bool>
    timeIt("time", llvm::cl::cat(timingOptions),
           llvm::cl::desc("Time with CUDA events (warm-up, L2 flushed "
                          "before each run); with --verify, the "
                          "reference too, by the same protocol"));
llvm::cl::opt<unsigned> warmup("warmup", llvm::cl::cat(timingOptions),
                               llvm::cl::desc("Untimed runs before timing"),
                               llvm::cl::init(10));
llvm::cl::opt<unsigned> runs("runs", llvm::cl::cat(timingOptions),
                             llvm::cl::desc("Timed runs"), llvm::cl::init(100));
llvm::cl::opt<bool> noReferenceTiming(
    "no-reference-timing", llvm::cl::cat(timingOptions),
    llvm::cl::desc("With --verify --time: time the candidate only"));
llvm::cl::opt<bool> noFlush("no-l2-flush", llvm::cl::cat(timingOptions),
                            llvm::cl::desc("Time without flushing the L2"));
llvm::cl::opt<std::string>
    reportFile("report", llvm::cl::cat(processOptions),
               llvm::cl::desc("Write the outcome as JSON here (also on "
                              "failure, crash or timeout)"));

/// The outcome of a qimeng-run, for --report: status is "ok" (ran), "pass"
/// or "fail" (verified), "error", "reference-error", "no-gpu", "crash" or
/// "timeout".
llvm::json::Object report;

/// Prints `message` (if any) and writes the report with `status`; returns
/// `code`.
int finish(int code, llvm::StringRef status, const llvm::Twine &message) {
  std::string text = message.str();
  if (!text.empty())
    llvm::errs() << "qimeng-run: " << text << "\n";
  report[protocol::kStatusKey] = status;
  report[protocol::kMessageKey] = text;
  if (llvm::json::Object phases = takePhaseSeconds(); !phases.empty())
    report["phase_s"] = std::move(phases);
  if (!reportFile.empty())
    if (llvm::Error err = writeJSON(
            reportFile, llvm::json::Value(llvm::json::Object(report))))
      llvm::errs() << "qimeng-run: cannot write the report: "
                   << llvm::toString(std::move(err)) << "\n";
  return code;
}

int fail(const llvm::Twine &message) {
  return finish(1, protocol::kError, message);
}

/// Fails with `err`'s message; its kind gives the status.
int fail(llvm::Error err) {
  llvm::StringRef status = err.isA<cuda::NoGpuError>() ? protocol::kNoGpu
                           : err.isA<ReferenceError>()
                               ? protocol::kReferenceError
                               : protocol::kError;
  return finish(1, status, llvm::toString(std::move(err)));
}

/// Runs `work` in a child process (before this process touches the GPU)
/// and waits at most `seconds` for it. Returns its exit status; a child
/// killed by a signal or the time limit fails with one clear line.
int runIsolated(unsigned seconds, llvm::function_ref<int()> work) {
  llvm::errs().flush();
  pid_t child = fork();
  if (child < 0)
    return fail("cannot fork the isolated run: " +
                llvm::Twine(std::strerror(errno)));
  if (child == 0) {
    int status = work();
    llvm::errs().flush();
    llvm::outs().flush();
    _exit(status);
  }
  int status = 0;
  ChildEnd end = waitForChild(child, seconds, status);
  if (end == ChildEnd::Lost)
    return fail("lost the isolated run: " + llvm::Twine(std::strerror(errno)));
  if (end == ChildEnd::TimedOut)
    return finish(1, protocol::kTimeout,
                  llvm::formatv("the run took longer than {0} s and was "
                                "killed (a hanging kernel?)",
                                seconds));
  // A child that exited wrote its own report.
  if (WIFSIGNALED(status))
    return finish(1, protocol::kCrash,
                  llvm::formatv("the run crashed: signal {0} ({1})",
                                WTERMSIG(status), strsignal(WTERMSIG(status))));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/// "@entry does not match the reference: trial seed S: why", naming where it
/// went wrong first (what a fix, or a repair round, needs).
std::string describeMismatch(llvm::StringRef entry,
                             const VerifyReport &report) {
  std::string where;
  for (const TrialReport &trial : report.trials)
    if (!trial.ok) {
      where = llvm::formatv(": trial seed {0}: {1}", trial.seed, trial.reason);
      break;
    }
  if (where.empty() && report.afterTiming && !report.afterTiming->ok)
    where = llvm::formatv(": seed {0}: {1}", report.afterTiming->seed,
                          report.afterTiming->reason);
  return ("@" + entry + " does not match the reference" + where).str();
}

/// The line the candidate watchdog writes when a candidate runs out of
/// time, formatted before the candidate starts: the signal handler only
/// opens, writes and exits (async-signal-safe).
std::string watchdogLine;
std::string watchdogPath;

extern "C" void onCandidateTimeout(int) {
  int fd = ::open(watchdogPath.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) {
    (void)!::write(fd, watchdogLine.data(), watchdogLine.size());
    ::close(fd);
  }
  _exit(3);
}

/// Arms the watchdog of candidate `index` (at `path`): after `seconds`, its
/// report line says it timed out and the process exits as for a candidate
/// that could not run (the caller goes on in a fresh process).
void armCandidateWatchdog(int64_t index, llvm::StringRef path,
                          unsigned seconds) {
  if (seconds == 0)
    return;
  llvm::json::Object line{
      {protocol::kIndexKey, index},
      {"path", path},
      {protocol::kStatusKey, protocol::kError},
      {protocol::kMessageKey,
       llvm::formatv("timeout: the candidate took longer than {0} "
                     "s and was stopped (a hanging kernel?)",
                     seconds)
           .str()}};
  watchdogLine =
      llvm::formatv("{0}\n", llvm::json::Value(std::move(line))).str();
  watchdogPath = candidatesReport;
  struct sigaction action = {};
  action.sa_handler = onCandidateTimeout;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(seconds);
}

/// --candidates: every listed module against `original`, one JSON line each
/// in --candidates-report as it is done (a crash loses only the one it hit).
int verifyCandidates(MLIRContext &context, ModuleOp original,
                     llvm::StringRef entry, const VerifyOptions &options,
                     llvm::function_ref<std::string()> describeDevice) {
  if (candidatesReport.empty())
    return fail("--candidates needs --candidates-report");
  if (!inputs.empty())
    return fail("--input cannot be used with --candidates (every candidate "
                "gets the seeded inputs of each trial)");
  auto list = llvm::MemoryBuffer::getFile(candidatesFile);
  if (!list)
    return fail("cannot read " + candidatesFile + ": " +
                list.getError().message());
  SmallVector<llvm::StringRef> paths;
  llvm::StringRef((*list)->getBuffer())
      .split(paths, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  llvm::Expected<std::shared_ptr<SharedReference>> reference =
      SharedReference::create(original, entry, referenceOn);
  if (!reference)
    return fail(reference.takeError());
  std::string device = describeDevice();
  auto emit = [&](llvm::json::Object line) -> bool {
    std::error_code ec;
    llvm::raw_fd_ostream os(candidatesReport, ec, llvm::sys::fs::OF_Append);
    if (ec)
      return false;
    os << llvm::formatv("{0}", llvm::json::Value(std::move(line))) << "\n";
    return true;
  };
  unsigned verified = 0;
  for (auto [i, path] : llvm::enumerate(paths)) {
    llvm::json::Object line{{protocol::kIndexKey, int64_t(i)},
                            {"path", path.trim()}};
    armCandidateWatchdog(int64_t(i), path.trim(), candidateTimeout);
    OwningOpRef<ModuleOp> candidate;
    std::string parseError;
    {
      ErrorCollector errors(&context);
      candidate = parseSourceFile<ModuleOp>(path.trim(), &context);
      parseError = errors.first();
    }
    llvm::Expected<std::unique_ptr<Verifier>> verifier =
        candidate
            ? Verifier::create(*candidate, entry, *reference)
            : llvm::Expected<std::unique_ptr<Verifier>>(llvm::createStringError(
                  "cannot parse " + path + ": " + parseError));
    llvm::Expected<VerifyReport> result =
        verifier ? (*verifier)->verify(options)
                 : llvm::Expected<VerifyReport>(verifier.takeError());
    // Done in time: the line below is the candidate's own.
    alarm(0);
    if (!result) {
      llvm::Error error = result.takeError();
      // No GPU, or a reference that does not run: nothing can be verified.
      if (error.isA<cuda::NoGpuError>() || error.isA<ReferenceError>())
        return fail(std::move(error));
      // The CUDA context may be unusable now: a fresh process goes on.
      line[protocol::kStatusKey] = protocol::kError;
      line[protocol::kMessageKey] = llvm::toString(std::move(error));
      emit(std::move(line));
      return finish(3, protocol::kError,
                    llvm::formatv("candidate {0} ({1}) could not run; {2} "
                                  "verified before it",
                                  i, path, verified));
    }
    line["phase_s"] = takePhaseSeconds();
    line[protocol::kStatusKey] = result->ok ? protocol::kPass : protocol::kFail;
    line[protocol::kMessageKey] =
        result->ok ? "" : describeMismatch(entry, *result);
    line[protocol::kVerifyKey] = toJSON(*result);
    if (!emit(std::move(line)))
      return fail("cannot write " + candidatesReport);
    ++verified;
  }
  return finish(
      0, protocol::kOk,
      llvm::formatv("{0} candidate(s) verified on {1}", verified, device));
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  // Candidates and references compile with the built-in paths only: the
  // verifier never asks an LLM.
  CompileSession::disableLLM();
  // Only qimeng-run's own options in --help (LLVM's and MLIR's stay usable,
  // listed by --help-hidden).
  llvm::cl::HideUnrelatedOptions({&inputOptions, &verificationOptions,
                                  &timingOptions, &candidatesOptions,
                                  &processOptions});
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "QiMeng: compile and run a kernel function on the GPU\n\n"
      "  qimeng-run kernel.gpu.mlir --output-dir=out     run, write .npy\n"
      "  qimeng-run kernel.gpu.mlir --verify --reference=kernel.mlir\n"
      "  qimeng-run kernel.gpu.mlir --time --runs=50     time (CUDA events)\n"
      "  qimeng-run kernel.mlir --cpu --verify           host semantics "
      "check\n");

  if (allowTf32)
    CompileSession::allowTf32();
  report["format"] = protocol::kFormat;
  report["input"] = std::string(inputFile);
  report["mode"] = verify ? "verify" : "run";

  // Everything runs in the child: it creates the MLIR context's threads
  // and the CUDA context itself (neither survives a fork).
  auto work = [&]() -> int {
    DialectRegistry registry;
    registerAllDialects(registry);
    MLIRContext context(registry);
    llvm::SourceMgr sources;
    SourceMgrDiagnosticHandler diagnostics(sources, &context);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(inputFile, sources, &context);
    if (!module) // the parser reported the error with its location
      return finish(1, protocol::kError, "cannot parse " + inputFile);

    std::string entry = entryName;
    if (entry.empty()) {
      // Public functions with a body; once lowered, those --lower-to-nvvm
      // recorded a signature for.
      SmallVector<llvm::StringRef> candidates;
      for (auto func : module->getOps<FunctionOpInterface>())
        if (!func.isExternal() && func.isPublic() &&
            (isa<func::FuncOp>(func) || func->hasAttr("qimeng.signature")))
          candidates.push_back(func.getName());
      if (candidates.size() != 1)
        return fail(llvm::formatv("the module has {0} public functions with a "
                                  "body; name one with --entry",
                                  candidates.size()));
      entry = candidates.front().str();
    }
    report["entry"] = entry;

    RunOptions options;
    options.seed = seed;
    options.poisonOutputs = poison;
    for (llvm::StringRef spec : shapes) {
      auto [index, dims] = spec.split('=');
      unsigned arg = 0;
      if (index.getAsInteger(10, arg) || dims.empty())
        return fail("--shape wants I=AxB..., got '" + spec + "'");
      SmallVector<llvm::StringRef> parts;
      dims.split(parts, 'x');
      for (llvm::StringRef part : parts) {
        int64_t size = 0;
        if (part.getAsInteger(10, size) || size < 0)
          return fail("--shape wants I=AxB..., got '" + spec + "'");
        options.dynamicSizes[arg].push_back(size);
      }
    }
    SmallVector<std::pair<unsigned, std::string>> inputFiles;
    for (llvm::StringRef spec : inputs) {
      auto [index, path] = spec.split('=');
      unsigned arg = 0;
      if (index.getAsInteger(10, arg) || path.empty())
        return fail("--input wants I=path.npy, got '" + spec + "'");
      inputFiles.emplace_back(arg, path.str());
    }
    // The .npy files need the argument types: read once a runner exists.
    auto readInputs = [&](ArrayRef<MemRefType> argTypes) -> llvm::Error {
      for (auto &[arg, path] : inputFiles) {
        if (arg >= argTypes.size())
          return llvm::createStringError(
              llvm::formatv("--input {0}: @{1} has {2} argument(s)", arg, entry,
                            argTypes.size()));
        llvm::Expected<HostBuffer> buffer =
            readNpy(path, argTypes[arg].getElementType());
        if (!buffer)
          return buffer.takeError();
        options.inputs[arg] = std::move(*buffer);
      }
      return llvm::Error::success();
    };
    TimingOptions timing;
    timing.warmup = warmup;
    timing.runs = runs;
    timing.flushL2 = !noFlush;
    auto describeDevice = [&]() -> std::string {
      llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
      if (!driver) {
        llvm::consumeError(driver.takeError());
        return "?";
      }
      llvm::Expected<cuda::DeviceInfo> info = cuda::getDeviceInfo(*driver);
      if (!info) {
        llvm::consumeError(info.takeError());
        return "?";
      }
      report["device"] = toJSON(*info);
      return info->name;
    };
    auto formatTiming = [](const Timing &t) {
      return llvm::formatv("median {0:F4} ms (min {1:F4}, mean {2:F4}, "
                           "stddev {3:F4}; {4} runs after {5} warm-up, {6})",
                           t.medianMs, t.minMs, t.meanMs, t.stddevMs, t.runs,
                           t.warmup,
                           t.flushBytes ? "L2 flushed"
                           : onCpu      ? "host wall clock"
                                        : "L2 not flushed")
          .str();
    };

    // The command line's checks (after the inputs are read).
    // A check's inputs are drawn fresh unless --seed replays a report's.
    uint64_t verifySeed =
        seed.getNumOccurrences() ? uint64_t(seed) : drawSeed();
    auto getVerifyOptions = [&] {
      VerifyOptions verifyOptions;
      verifyOptions.trials = trials;
      verifyOptions.seed = verifySeed;
      verifyOptions.run = options;
      if (absTol.getNumOccurrences() || relTol.getNumOccurrences())
        verifyOptions.tolerance = Tolerance{absTol, relTol};
      if (timeIt)
        verifyOptions.timing = timing;
      verifyOptions.timeReference = !noReferenceTiming;
      return verifyOptions;
    };
    if (!candidatesFile.empty())
      return verifyCandidates(context, *module, entry, getVerifyOptions(),
                              describeDevice);
    if (verify) {
      OwningOpRef<ModuleOp> referenceModule;
      llvm::SourceMgr referenceSources;
      if (!referenceFile.empty()) {
        referenceModule = parseSourceFile<ModuleOp>(referenceFile,
                                                    referenceSources, &context);
        if (!referenceModule)
          return finish(1, protocol::kReferenceError,
                        "cannot parse " + referenceFile);
      }
      llvm::Expected<std::unique_ptr<Verifier>> verifier = Verifier::create(
          *module, entry, referenceModule ? *referenceModule : ModuleOp(),
          onCpu ? ReferenceOn::Cpu : ReferenceOn(referenceOn),
          onCpu ? RunnerMode::Cpu : RunnerMode::Planned, wideReference);
      if (!verifier)
        return fail(verifier.takeError());
      if (llvm::Error err = readInputs((*verifier)->getArgTypes()))
        return fail(std::move(err));
      std::string device = onCpu ? "the CPU" : describeDevice();
      llvm::Expected<VerifyReport> verified =
          (*verifier)->verify(getVerifyOptions());
      if (!verified)
        return fail(verified.takeError());
      report[protocol::kVerifyKey] = toJSON(*verified);
      llvm::errs() << "qimeng-run: seed " << verified->seed
                   << " (replay with --seed=" << verified->seed << ")\n";
      llvm::errs() << "qimeng-run: reference: "
                   << (verified->referenceOn == "cpu"
                           ? "the unplanned program on the CPU"
                           : "the program with plain plans on the GPU")
                   << "\n";
      for (const TrialReport &trial : verified->trials) {
        llvm::errs() << llvm::formatv(
            "qimeng-run: trial seed {0}{1}: {2}", trial.seed,
            trial.inputScaleLog2
                ? llvm::formatv(" (inputs x 2^{0})", trial.inputScaleLog2).str()
                : std::string(),
            trial.ok ? "ok" : "FAIL");
        for (const OutputReport &output : trial.outputs)
          llvm::errs() << llvm::formatv(
              ", {0} max abs {1:e2} rel {2:e2} margin {3}", output.name,
              output.comparison.maxAbsError, output.comparison.maxRelError,
              std::isfinite(output.comparison.margin)
                  ? llvm::formatv("{0:f3}", output.comparison.margin).str()
                  : std::string("inf"));
        if (!trial.ok)
          llvm::errs() << " — " << trial.reason;
        if (!trial.poisoned)
          llvm::errs() << " (" << trial.note << ")";
        llvm::errs() << "\n";
      }
      if (verified->afterTiming)
        llvm::errs() << "qimeng-run: after the timed calls: "
                     << (verified->afterTiming->ok
                             ? "ok"
                             : "FAIL — " + verified->afterTiming->reason)
                     << "\n";
      if (verified->candidateTiming)
        llvm::errs() << "qimeng-run: candidate "
                     << formatTiming(*verified->candidateTiming) << " on "
                     << device << "\n";
      if (verified->referenceTiming)
        llvm::errs() << "qimeng-run: reference "
                     << formatTiming(*verified->referenceTiming) << "\n"
                     << llvm::formatv("qimeng-run: speedup over the reference "
                                      "{0:F2}x\n",
                                      verified->speedup);
      if (verified->suspiciousSpeedup)
        llvm::errs() << "qimeng-run: note: the candidate ran more than 10x "
                        "faster than the reference\n";
      if (!verified->ok)
        return finish(1, protocol::kFail, describeMismatch(entry, *verified));
      return finish(0, protocol::kPass,
                    llvm::formatv("@{0} matches the reference in {1} trial(s)",
                                  entry, verified->trials.size()));
    }

    llvm::Expected<std::unique_ptr<Runner>> runner = Runner::create(
        *module, entry, onCpu ? RunnerMode::Cpu : RunnerMode::Planned);
    if (!runner)
      return fail(runner.takeError());
    if (llvm::Error err = readInputs((*runner)->getArgTypes()))
      return fail(std::move(err));
    std::string device = onCpu ? "the CPU" : describeDevice();
    llvm::Expected<RunResult> result = (*runner)->run(options);
    if (!result)
      return fail(result.takeError());
    report["wall_ms"] = result->milliseconds;
    std::string timed;
    if (timeIt) {
      llvm::Expected<Timing> measured = (*runner)->time(options, timing);
      if (!measured)
        return fail(measured.takeError());
      report[protocol::kTimingKey] = toJSON(*measured);
      timed = ", " + formatTiming(*measured);
    }

    if (!outputDir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
        return fail("cannot create " + outputDir + ": " + ec.message());
      auto write = [&](llvm::StringRef stem, unsigned i,
                       const HostBuffer &buffer) -> llvm::Error {
        llvm::SmallString<128> path(outputDir);
        llvm::sys::path::append(path,
                                llvm::formatv("{0}{1}.npy", stem, i).str());
        return writeNpy(path, buffer.element, buffer.shape,
                        buffer.bytes.data());
      };
      for (auto [i, buffer] : llvm::enumerate(result->args))
        if (llvm::Error err = write("arg", i, buffer))
          return fail(std::move(err));
      for (unsigned i = 0; i < result->results.size(); ++i)
        if (llvm::Error err = write("result", i, result->getResult(i)))
          return fail(std::move(err));
    }
    return finish(
        0, protocol::kOk,
        llvm::formatv(
            "@{0} on {1}: {2} argument(s), {3} result(s){4}{5}", entry, device,
            result->args.size(), result->results.size(),
            outputDir.empty() ? std::string() : ", written to " + outputDir,
            timed));
  };
  return timeout ? runIsolated(timeout, work) : work();
}
