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

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
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
        llvm::errs() << "error: cannot create a temporary beside '"
                     << finalPath << "': " << ec.message() << "\n";
        failedToCreate = true;
        return;
      }
      tempPath = created.str().str();
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
  int rc = mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(cargs.size()), cargs.data(),
      "QiMeng optimizer driver\n\n"
      "  --llm-plan        plan and realize every kernel\n"
      "  --lower-to-nvvm   lower to NVVM and serialize to PTX/cubin\n"
      "  --print-plan-schema  print the JSON Schema of a plan and exit\n",
      registry));
  // The compile report and the recorded LLM session, whatever the outcome.
  rc = mlir::qimeng::finishCompileSession(rc);
  return output.finish(rc);
}
