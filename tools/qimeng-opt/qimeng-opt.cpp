//===- qimeng-opt.cpp - QiMeng's optimizer driver -------------------------===//
//
// mlir-opt with the qimeng dialect, QiMeng's passes and pipelines, and the
// upstream dialects and passes the GPU pipeline needs.
//
//   qimeng-opt --llm-plan --lower-to-nvvm kernel.mlir -o kernel.gpu.mlir
//   qimeng-opt --print-plan-schema
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Support/GuardedParse.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {
/// Makes `-o FILE` atomic: the tool writes to a temporary file beside FILE,
/// which replaces FILE only when the whole run succeeded. A failed run leaves
/// no half-written file, and an existing FILE untouched.
class AtomicOutput {
public:
  /// Rewrites the output file argument of `args` (if any) to a temporary.
  explicit AtomicOutput(std::vector<std::string> &args) {
    for (size_t i = 1; i < args.size(); ++i) {
      llvm::StringRef arg = args[i];
      std::string *value = nullptr;
      if ((arg == "-o" || arg == "--o") && i + 1 < args.size())
        value = &args[++i];
      else if (arg.consume_front("-o=") || arg.consume_front("--o=")) {
        args[i] = "-o=" + arg.str();
        value = &args[i];
      }
      if (!value)
        continue;
      llvm::StringRef path = *value;
      bool inPlace = path.consume_front("-o=");
      if (path == "-" || path.empty())
        continue;
      // Only plain files (or new ones) are replaced by renaming; a symlink,
      // device or FIFO is written in place, as mlir-opt would.
      llvm::sys::fs::file_status status;
      if (!llvm::sys::fs::status(path, status, /*follow=*/false) &&
          status.type() != llvm::sys::fs::file_type::regular_file)
        continue;
      finalPath = path.str();
      // A temporary of a random name, created exclusively (O_EXCL) beside
      // FILE, and written through its descriptor (/dev/fd/N): nobody can
      // plant a symlink there for the write to follow.
      llvm::SmallString<256> created;
      if (std::error_code ec = llvm::sys::fs::createUniqueFile(
              finalPath + ".tmp-%%%%%%%%%%%%", fd, created)) {
        llvm::errs() << "error: cannot create a temporary beside '" << finalPath
                     << "': " << ec.message() << "\n";
        failedToCreate = true;
        return;
      }
      tempPath = created.str().str();
      // Killed by a signal (a closed pipe on stderr, an interrupt), the
      // temporary goes too.
      llvm::sys::SetOneShotPipeSignalFunction(
          llvm::sys::DefaultOneShotPipeSignalHandler);
      llvm::sys::RemoveFileOnSignal(tempPath);
      *value = (inPlace ? "-o=" : "") + ("/dev/fd/" + std::to_string(fd));
    }
  }

  /// Whether the temporary could not be created (nothing to run then).
  bool failed() const { return failedToCreate; }

  /// Moves the temporary into place on success, removes it on failure.
  int finish(int rc) {
    if (tempPath.empty())
      return rc;
    auto cleanUp = [&] {
      llvm::sys::fs::remove(tempPath);
      llvm::sys::DontRemoveFileOnSignal(tempPath);
      ::close(fd);
    };
    if (rc != 0) {
      cleanUp();
      return rc;
    }
    // The name must still be the file written (not swapped meanwhile).
    struct stat written, named;
    if (::fstat(fd, &written) != 0 || ::lstat(tempPath.c_str(), &named) != 0 ||
        written.st_ino != named.st_ino || written.st_dev != named.st_dev) {
      llvm::errs() << "error: the temporary output '" << tempPath
                   << "' was replaced while it was written\n";
      ::close(fd);
      return 1;
    }
    llvm::sys::DontRemoveFileOnSignal(tempPath);
    if (std::error_code ec = llvm::sys::fs::rename(tempPath, finalPath)) {
      llvm::errs() << "error: cannot write '" << finalPath
                   << "': " << ec.message() << "\n";
      cleanUp();
      return 1;
    }
    ::close(fd);
    return rc;
  }

private:
  std::string finalPath, tempPath;
  int fd = -1;
  bool failedToCreate = false;
};
/// Parses the input in a child process before the tool parses it: an input
/// the parser rejects is reported by the child (its diagnostics, printed as
/// the tool would print them) and never parsed in this process, whose
/// parser's error path may corrupt the heap (GuardedParse.h). Returns
/// whether the tool may go on. Standard input is read here and put back as
/// an in-memory file for the tool to read again.
static bool trialParseInput(llvm::StringRef inputFile,
                            const mlir::MlirOptMainConfig &config,
                            const mlir::DialectRegistry &registry) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    return true; // The tool says it cannot open it.
  if (inputFile == "-") {
    int fd = ::memfd_create("qimeng-opt-stdin", 0);
    llvm::StringRef text = (*buffer)->getBuffer();
    size_t written = 0;
    while (fd >= 0 && written < text.size()) {
      ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n <= 0)
        break;
      written += n;
    }
    if (fd < 0 || written != text.size() || ::lseek(fd, 0, SEEK_SET) != 0 ||
        ::dup2(fd, STDIN_FILENO) < 0) {
      llvm::errs() << "error: cannot keep standard input for a second read\n";
      return false;
    }
    ::close(fd);
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::qimeng::TrialParseOptions options;
  options.allowUnregisteredDialects = config.shouldAllowUnregisteredDialects();
  options.splitMarker = config.inputSplitMarker().str();
  // Test modes (diagnostic checks, split input, whose parts go on after one
  // fails) expect the parser's errors from the tool itself: there the child
  // only tells whether parsing survives.
  bool testMode =
      config.shouldVerifyDiagnostics() || !options.splitMarker.empty();
  options.printDiagnostics = !testMode;
  mlir::qimeng::TrialParseResult trial =
      mlir::qimeng::trialParse(sourceMgr, registry, options);
  if (trial.outcome == mlir::qimeng::TrialParse::Crashed) {
    llvm::errs() << inputFile << ":1:1: error: MLIR's parser crashed on this "
                 << "input (" << trial.why << "): an upstream bug on some "
                 << "malformed or deeply nested input; no output written\n";
    return false;
  }
  return trial.outcome == mlir::qimeng::TrialParse::Parsed || testMode;
}
} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::qimeng::registerAllDialects(registry);

  // Print the JSON Schema of a plan (what an LLM planner must answer in).
  for (int i = 1; i < argc; ++i) {
    if (llvm::StringRef(argv[i]) != "--print-plan-schema")
      continue;
    mlir::MLIRContext context(registry);
    llvm::outs() << llvm::formatv(
                        "{0:2}", llvm::json::Value(
                                     mlir::qimeng::getPlanJSONSchema(&context)))
                 << "\n";
    return 0;
  }

  mlir::qimeng::registerAllPasses();
  // --micro-coder, --qimeng-report, --llm-* ... (docs/llm.md).
  mlir::qimeng::registerCompileOptions();
  std::vector<std::string> args(argv, argv + argc);
  AtomicOutput output(args);
  if (output.failed())
    return 1;
  std::vector<char *> cargs;
  for (std::string &arg : args)
    cargs.push_back(arg.data());
  int cargc = static_cast<int>(cargs.size());
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      cargc, cargs.data(),
      "QiMeng optimizer driver\n\n"
      "  --llm-plan        plan and realize every kernel\n"
      "  --lower-to-nvvm   lower to NVVM and serialize to PTX/cubin\n"
      "  --print-plan-schema  print the JSON Schema of a plan and exit\n",
      registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  bool readsInput = !config.shouldShowDialects() &&
                    !config.shouldListPasses() && !config.shouldRunReproducer();
  if (readsInput && !trialParseInput(inputFile, config, registry))
    return output.finish(mlir::qimeng::finishCompileSession(1));
  int rc = mlir::asMainReturnCode(
      mlir::MlirOptMain(cargc, cargs.data(), inputFile, outputFile, registry));
  // The compile report and the recorded LLM session, whatever the outcome.
  rc = mlir::qimeng::finishCompileSession(rc);
  return output.finish(rc);
}
