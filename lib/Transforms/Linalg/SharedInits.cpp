//===- SharedInits.cpp - One fill per kernel that starts from it ----------===//

#include "SharedInits.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::qimeng {
namespace {

struct UnshareFill : public OpRewritePattern<linalg::FillOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::FillOp fill,
                                PatternRewriter &rewriter) const override {
    if (!fill.hasPureTensorSemantics() || fill->hasOneUse() ||
        fill->use_empty())
      return rewriter.notifyMatchFailure(fill, "not a shared fill on tensors");
    // Every use but the first gets a copy right before its user.
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : fill->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : ArrayRef<OpOperand *>(uses).drop_front()) {
      rewriter.setInsertionPoint(use->getOwner());
      Operation *copy = rewriter.clone(*fill);
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(copy->getResult(0)); });
    }
    return success();
  }
};

} // namespace

void populateSharedInitPatterns(RewritePatternSet &patterns) {
  patterns.add<UnshareFill>(patterns.getContext());
}

} // namespace mlir::qimeng
