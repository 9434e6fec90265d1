//===- SyncManagedAllocs.cpp - Managed allocations off the stream ---------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGSYNCMANAGEDALLOCSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

class QiMengSyncManagedAllocsPass
    : public impl::QiMengSyncManagedAllocsPassBase<
          QiMengSyncManagedAllocsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<gpu::AllocOp> allocs;
    getOperation().walk([&](gpu::AllocOp alloc) {
      if (alloc.getHostShared() && alloc.getAsyncToken())
        allocs.push_back(alloc);
    });
    for (gpu::AllocOp alloc : allocs) {
      Location loc = alloc.getLoc();
      rewriter.setInsertionPoint(alloc);
      if (!alloc.getAsyncDependencies().empty())
        gpu::WaitOp::create(rewriter, loc, Type(),
                            alloc.getAsyncDependencies());
      auto sync = gpu::AllocOp::create(
          rewriter, loc, alloc.getMemref().getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/true);
      auto token =
          gpu::WaitOp::create(rewriter, loc,
                              gpu::AsyncTokenType::get(&getContext()),
                              ValueRange());
      rewriter.replaceOp(alloc, {sync.getMemref(), token.getAsyncToken()});
    }
  }
};

} // namespace
} // namespace mlir::qimeng
