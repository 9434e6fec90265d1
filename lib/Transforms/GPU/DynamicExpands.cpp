//===- DynamicExpands.cpp - Reshapes into several dynamic sizes -----------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGREINTERPRETDYNAMICEXPANDSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// Whether `expand` splits a dimension into two or more dynamic sizes (what
/// MLIR 22's expand-strided-metadata cannot lower).
bool splitsIntoDynamicSizes(memref::ExpandShapeOp expand) {
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  return llvm::any_of(expand.getReassociationIndices(),
                      [&](const ReassociationIndices &g) {
                        return llvm::count_if(g, [&](int64_t d) {
                                 return ShapedType::isDynamic(shape[d]);
                               }) >= 2;
                      });
}

/// `lhs * rhs`, folded when both are constants.
OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(*l * *r);
  if (l == 1)
    return rhs;
  if (r == 1)
    return lhs;
  return arith::MulIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, lhs),
                               getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

struct QiMengReinterpretDynamicExpandsPass
    : public impl::QiMengReinterpretDynamicExpandsPassBase<
          QiMengReinterpretDynamicExpandsPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> expands;
    getOperation().walk([&](memref::ExpandShapeOp expand) {
      if (splitsIntoDynamicSizes(expand))
        expands.push_back(expand);
    });
    for (memref::ExpandShapeOp expand : expands) {
      MemRefType source = expand.getSrcType();
      MemRefType result = expand.getResultType();
      if (!source.getLayout().isIdentity() ||
          !result.getLayout().isIdentity()) {
        expand.emitOpError()
            << "splits a dimension into several dynamic sizes of a buffer "
               "with a non-identity layout, which the GPU lowering cannot "
               "take (MLIR 22's expand-strided-metadata fails on it)";
        return signalPassFailure();
      }
      OpBuilder b(expand);
      Location loc = expand.getLoc();
      SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
      SmallVector<OpFoldResult> strides(sizes.size());
      OpFoldResult running = b.getIndexAttr(1);
      for (int64_t d = sizes.size() - 1; d >= 0; --d) {
        strides[d] = running;
        if (d > 0)
          running = multiply(b, loc, running, sizes[d]);
      }
      auto view = memref::ReinterpretCastOp::create(
          b, loc, result, expand.getSrc(), b.getIndexAttr(0), sizes, strides);
      expand.replaceAllUsesWith(view.getResult());
      expand.erase();
    }
  }
};

} // namespace
} // namespace mlir::qimeng
