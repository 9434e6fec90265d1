//===- DumpPTX.cpp - Write the PTX of gpu.binary ops to files -------------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "PTXObjects.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGDUMPPTXPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

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
          if (llvm::Error err =
                  llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
                    os << ptx;
                    return llvm::Error::success();
                  })) {
            binary.emitError()
                << "cannot write PTX: " << llvm::toString(std::move(err));
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
    if (result.wasInterrupted())
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace mlir::qimeng
