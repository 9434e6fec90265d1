//===- DeviceAllocs.cpp - Temporaries in GPU-accessible memory ------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGDEVICEALLOCSPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Whether `value` (a memref) reaches a gpu.launch body, directly or through
/// view-like ops.
static bool usedOnDevice(Value value) {
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (Operation *user : current.getUsers()) {
      if (user->getParentOfType<gpu::LaunchOp>())
        return true;
      if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

class QiMengDeviceAllocsPass
    : public impl::QiMengDeviceAllocsPassBase<QiMengDeviceAllocsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    WalkResult result = getOperation().walk([&](memref::AllocOp alloc) {
      if (alloc->getParentOfType<gpu::LaunchOp>() ||
          !usedOnDevice(alloc.getResult()))
        return WalkResult::advance();
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !alloc.getSymbolOperands().empty()) {
        alloc.emitOpError()
            << "is used by a GPU kernel but has a layout, memory space or "
               "symbols that device allocation does not support";
        return WalkResult::interrupt();
      }
      rewriter.setInsertionPoint(alloc);
      auto device = gpu::AllocOp::create(
          rewriter, alloc.getLoc(), type, /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          /*symbolOperands=*/ValueRange(), /*hostShared=*/true);
      for (Operation *user : llvm::to_vector(alloc->getUsers()))
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
          rewriter.setInsertionPoint(dealloc);
          gpu::DeallocOp::create(rewriter, dealloc.getLoc(), Type(),
                                 ValueRange(), device.getMemref());
          rewriter.eraseOp(dealloc);
        }
      rewriter.replaceOp(alloc, device.getMemref());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::qimeng
