//===- qimeng-run.cpp - Compile and run a kernel function on the GPU ------===//
//
//   qimeng-run kernel.mlir [--entry=f] [--seed=N] [--shape=I=AxB]
//              [--output-dir=DIR] [--repeat=N]
//   qimeng-run kernel.mlir --verify [--trials=N] [--atol=A --rtol=R]
//
// Compiles the module with the embedded default (--llm-plan, --lower-to-nvvm),
// JITs its host code, builds the entry's arguments from its signature (seeded
// uniform inputs in managed memory), runs it and writes every argument and
// result as .npy (argI.npy, resultI.npy) for NumPy/PyTorch. Exits non-zero
// with one line on stderr when anything fails, including "no CUDA driver/GPU
// found" on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/InitAll.h"
#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/Runner.h"
#include "QiMeng/Verifier/Verifier.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::desc("<input .mlir>"),
                                     llvm::cl::Required);
llvm::cl::opt<std::string>
    entryName("entry",
              llvm::cl::desc("Function to run (default: the only public "
                             "function with a body)"));
llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("Seed of the inputs"),
                             llvm::cl::init(0));
llvm::cl::list<std::string>
    shapes("shape", llvm::cl::desc("Sizes of an argument's dynamic dimensions: "
                                   "I=AxB (argument I, in order)"));
llvm::cl::opt<std::string>
    outputDir("output-dir",
              llvm::cl::desc("Write argI.npy and resultI.npy here"));
llvm::cl::opt<bool> verify(
    "verify",
    llvm::cl::desc("Check every output against the reference (the module "
                   "with plain plans) on fresh seeded inputs, with NaN-"
                   "poisoned outputs; exit 1 on a mismatch"));
llvm::cl::opt<std::string> referenceFile(
    "reference",
    llvm::cl::desc("With --verify: the original program to check against "
                   "(default: the input itself, with plain plans)"));
llvm::cl::opt<unsigned> trials("trials",
                               llvm::cl::desc("Verification trials (seeds "
                                              "seed, seed+1, ...)"),
                               llvm::cl::init(3));
llvm::cl::opt<double> absTol("atol", llvm::cl::desc("Absolute tolerance "
                                                    "(default per type)"));
llvm::cl::opt<double> relTol("rtol", llvm::cl::desc("Relative tolerance "
                                                    "(default per type)"));
llvm::cl::opt<unsigned> timeout(
    "timeout",
    llvm::cl::desc("Seconds the work may take (it runs in a child process: "
                   "a hang or a crash fails the run, not the caller); 0 runs "
                   "in this process"),
    llvm::cl::init(300));
llvm::cl::opt<unsigned> repeat("repeat",
                               llvm::cl::desc("Runs (the last is written)"),
                               llvm::cl::init(1));

int fail(const llvm::Twine &message) {
  llvm::errs() << "qimeng-run: " << message << "\n";
  return 1;
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
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      break;
    if (done < 0)
      return fail("lost the isolated run: " +
                  llvm::Twine(std::strerror(errno)));
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return fail(llvm::formatv("the run took longer than {0} s and was "
                                "killed (a hanging kernel?)",
                                seconds));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status))
    return fail(llvm::formatv("the run crashed: signal {0} ({1})",
                              WTERMSIG(status), strsignal(WTERMSIG(status))));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "QiMeng: compile and run a kernel function on the GPU\n");

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
    if (!module)
      return 1; // the parser reported the error with its location

    std::string entry = entryName;
    if (entry.empty()) {
      SmallVector<func::FuncOp> candidates;
      for (auto func : module->getOps<func::FuncOp>())
        if (!func.isExternal() && func.isPublic())
          candidates.push_back(func);
      if (candidates.size() != 1)
        return fail(llvm::formatv("the module has {0} public functions with a "
                                  "body; name one with --entry",
                                  candidates.size()));
      entry = candidates.front().getSymName().str();
    }

    RunOptions options;
    options.seed = seed;
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

    if (verify) {
      OwningOpRef<ModuleOp> referenceModule;
      llvm::SourceMgr referenceSources;
      if (!referenceFile.empty()) {
        referenceModule = parseSourceFile<ModuleOp>(referenceFile,
                                                    referenceSources, &context);
        if (!referenceModule)
          return 1;
      }
      llvm::Expected<std::unique_ptr<Verifier>> verifier = Verifier::create(
          *module, entry, referenceModule ? *referenceModule : ModuleOp());
      if (!verifier)
        return fail(llvm::toString(verifier.takeError()));
      VerifyOptions verifyOptions;
      verifyOptions.trials = trials;
      verifyOptions.seed = seed;
      verifyOptions.run = options;
      if (absTol.getNumOccurrences() || relTol.getNumOccurrences())
        verifyOptions.tolerance = Tolerance{absTol, relTol};
      llvm::Expected<VerifyReport> report = (*verifier)->verify(verifyOptions);
      if (!report)
        return fail(llvm::toString(report.takeError()));
      for (const TrialReport &trial : report->trials) {
        llvm::errs() << llvm::formatv("qimeng-run: trial seed {0}: {1}",
                                      trial.seed, trial.ok ? "ok" : "FAIL");
        for (const OutputReport &output : trial.outputs)
          llvm::errs() << llvm::formatv(
              ", {0} max abs {1:e2} rel {2:e2}", output.name,
              output.comparison.maxAbsError, output.comparison.maxRelError);
        if (!trial.ok)
          llvm::errs() << " — " << trial.reason;
        if (!trial.poisoned)
          llvm::errs() << " (" << trial.note << ")";
        llvm::errs() << "\n";
      }
      if (report->suspiciousSpeedup)
        llvm::errs() << "qimeng-run: note: the candidate ran more than 10x "
                        "faster than the reference\n";
      if (!report->ok)
        return fail("@" + entry + " does not match the reference");
      llvm::errs() << llvm::formatv(
          "qimeng-run: @{0} matches the reference in {1} trial(s)\n", entry,
          report->trials.size());
      return 0;
    }

    llvm::Expected<std::unique_ptr<Runner>> runner =
        Runner::create(*module, entry);
    if (!runner)
      return fail(llvm::toString(runner.takeError()));
    RunResult result;
    std::vector<double> times;
    for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
      llvm::Expected<RunResult> run = (*runner)->run(options);
      if (!run)
        return fail(llvm::toString(run.takeError()));
      times.push_back(run->milliseconds);
      result = std::move(*run);
    }
    std::sort(times.begin(), times.end());

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
      for (auto [i, buffer] : llvm::enumerate(result.args))
        if (llvm::Error err = write("arg", i, buffer))
          return fail(llvm::toString(std::move(err)));
      for (auto [i, buffer] : llvm::enumerate(result.results))
        if (llvm::Error err = write("result", i, buffer))
          return fail(llvm::toString(std::move(err)));
    }
    std::string device = "?";
    if (llvm::Expected<cuda::Driver &> driver = cuda::Driver::get()) {
      if (llvm::Expected<cuda::DeviceInfo> info = cuda::getDeviceInfo(*driver))
        device = info->name;
      else
        llvm::consumeError(info.takeError());
    } else {
      llvm::consumeError(driver.takeError());
    }
    llvm::errs() << llvm::formatv(
        "qimeng-run: @{0} on {1}: {2} run(s), median {3:F3} ms (wall clock, "
        "includes host code), {4} argument(s), {5} result(s){6}\n",
        entry, device, times.size(), times[times.size() / 2],
        result.args.size(), result.results.size(),
        outputDir.empty() ? std::string() : ", written to " + outputDir);
    return 0;
  };
  return timeout ? runIsolated(timeout, work) : work();
}
