//===- CheckBinaries.cpp - Reject PTX with unlinked libdevice calls -------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "PTXObjects.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGCHECKBINARIESPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// The first libdevice function `ptx` declares but does not define, or "".
llvm::StringRef findUnlinkedLibdeviceCall(llvm::StringRef ptx) {
  SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.starts_with(".extern .func"))
      continue;
    size_t at = line.find("__nv_");
    if (at != llvm::StringRef::npos)
      return line.substr(at).take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_'; });
  }
  return {};
}

class QiMengCheckBinariesPass
    : public impl::QiMengCheckBinariesPassBase<QiMengCheckBinariesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = walkPTXObjects(
        getOperation(), [&](gpu::BinaryOp binary, llvm::StringRef ptx) {
          llvm::StringRef function = findUnlinkedLibdeviceCall(ptx);
          if (function.empty())
            return WalkResult::advance();
          binary.emitError()
              << "kernel module '" << binary.getSymName() << "' calls "
              << function
              << " from CUDA's libdevice, which was not linked: no CUDA "
                 "toolkit was found (set CUDA_HOME to one, e.g. "
                 "/usr/local/cuda, or put its ptxas on PATH)";
          return WalkResult::interrupt();
        });
    if (result.wasInterrupted())
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::qimeng
