//===- KernelAsserts.cpp - Assertions inside kernel bodies ----------------===//

#include "KernelAsserts.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::qimeng {
namespace {

struct DropKernelAssert : public OpRewritePattern<cf::AssertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(cf::AssertOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<linalg::LinalgOp>())
      return rewriter.notifyMatchFailure(op, "not in a linalg body");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateKernelAssertPatterns(RewritePatternSet &patterns) {
  patterns.add<DropKernelAssert>(patterns.getContext());
}

} // namespace mlir::qimeng
