//===- DumpPTX.cpp - Write the PTX of gpu.binary ops to files -------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

#include "PTXObjects.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGDUMPPTXPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {
class QiMengDumpPTXPass
    : public impl::QiMengDumpPTXPassBase<QiMengDumpPTXPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getOperation().emitError()
          << "cannot create PTX directory '" << dir << "': " << ec.message();
      return signalPassFailure();
    }
    WalkResult result = walkPTXObjects(
        getOperation(), [&](gpu::BinaryOp binary, llvm::StringRef ptx) {
          // Symbol names may hold any character; keep the file inside `dir`.
          std::string name = binary.getSymName().str();
          for (char &c : name)
            if (!llvm::isAlnum(c) && c != '_' && c != '-')
              c = '_';
          SmallString<128> path(dir);
          llvm::sys::path::append(path, name + ".ptx");
          std::string error;
          std::unique_ptr<llvm::ToolOutputFile> file =
              openOutputFile(path, &error);
          if (!file) {
            binary.emitError() << "cannot write PTX: " << error;
            return WalkResult::interrupt();
          }
          file->os() << ptx;
          file->keep();
          return WalkResult::advance();
        });
    if (result.wasInterrupted())
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace mlir::qimeng
