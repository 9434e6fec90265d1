//===- ConstantInputs.cpp - Constant tensors read by kernels --------------===//

#include "ConstantInputs.h"

#include "QiMeng/Transforms/Linalg/Generalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

namespace mlir::qimeng {
namespace {

struct InlineSplatInput : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    for (OpOperand *input : op.getDpsInputOperands()) {
      DenseElementsAttr splat;
      if (!matchPattern(input->get(), m_Constant(&splat)) || !splat.isSplat())
        continue;
      auto value = dyn_cast<TypedAttr>(splat.getSplatValue<Attribute>());
      if (!value)
        continue;
      inlineInput(rewriter, op, input, value);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "reads no splat constant");
  }

  /// Rebuilds `op` without `input`, its body using `value` instead.
  static void inlineInput(PatternRewriter &rewriter, linalg::GenericOp op,
                          OpOperand *input, TypedAttr value) {
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *other : op.getDpsInputOperands()) {
      if (other == input)
        continue;
      inputs.push_back(other->get());
      maps.push_back(op.getMatchingIndexingMap(other));
    }
    for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i)
      maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(i)));
    unsigned position = input->getOperandNumber();
    linalg::GenericOp rebuilt = rebuildGeneric(
        rewriter, op, op.getResultTypes(), inputs, op.getDpsInits(), maps);
    Block &body = rebuilt.getRegion().front();
    rewriter.setInsertionPointToStart(&body);
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(), value);
    rewriter.replaceAllUsesWith(body.getArgument(position), scalar);
    body.eraseArgument(position);
    rewriter.replaceOp(op, rebuilt->getResults());
  }
};

} // namespace

void populateConstantInputPatterns(RewritePatternSet &patterns) {
  patterns.add<InlineSplatInput>(patterns.getContext());
}

} // namespace mlir::qimeng
