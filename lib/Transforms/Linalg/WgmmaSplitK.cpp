//===- WgmmaSplitK.cpp - Few output tiles on wgmma: K in parts ------------===//

#include "WgmmaSplitK.h"

#include "Gathers.h"

#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::qimeng {
namespace {

struct SplitWgmmaK : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  SplitWgmmaK(MLIRContext *ctx, int64_t numSMs)
      : OpInterfaceRewritePattern(ctx), numSMs(numSMs) {}
  int64_t numSMs;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not a matmul on tensors");
    int64_t parts = getWgmmaKSplits(op, numSMs);
    if (parts <= 1)
      return rewriter.notifyMatchFailure(op, "enough output tiles");
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    // The kernel reads A (and B) as the matrices they reshape: slices of
    // larger tensors would be strided views.
    if (!isWholeBatchedOperand(a) || !isWholeBatchedOperand(b))
      return rewriter.notifyMatchFailure(op, "an operand is a slice");
    bool nk = readsNKRhs(op);
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    int64_t m = bounds[0], n = bounds[1], k = bounds[2];
    int64_t part = k / parts;
    Location loc = op.getLoc();
    MLIRContext *ctx = op->getContext();
    Type in = getElementTypeOrSelf(a);
    Type out = getElementTypeOrSelf(c);
    Type f32 = rewriter.getF32Type();

    // A (m, K) as (m, S, Kc); B (K, n) as (S, Kc, n), or (n, K) as (n, S,
    // Kc): views of the same buffers.
    auto expand = [&](Value value, ArrayRef<int64_t> shape,
                      ArrayRef<ReassociationIndices> groups) -> Value {
      return tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, in), value, groups);
    };
    Value aParts = expand(a, {m, parts, part}, {{0}, {1, 2}});
    Value bParts = nk ? expand(b, {n, parts, part}, {{0}, {1, 2}})
                      : expand(b, {parts, part, n}, {{0, 1}, {2}});
    Value empty = tensor::EmptyOp::create(rewriter, loc,
                                          ArrayRef<int64_t>{parts, m, n}, f32);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    Value partials =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    auto dims = [&](ArrayRef<unsigned> positions) {
      SmallVector<AffineExpr> results;
      for (unsigned p : positions)
        results.push_back(getAffineDimExpr(p, ctx));
      return AffineMap::get(4, 0, results, ctx);
    };
    // Loops (s, m, n, k).
    SmallVector<AffineMap> maps{dims({1, 0, 3}),
                                nk ? dims({2, 0, 3}) : dims({0, 3, 2}),
                                dims({0, 1, 2})};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    auto product = linalg::GenericOp::create(
        rewriter, loc, partials.getType(), ValueRange{aParts, bParts},
        ValueRange{partials}, maps, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value x = convertScalarToDtype(nb, nloc, args[0], f32,
                                         /*isUnsignedCast=*/false);
          Value y = convertScalarToDtype(nb, nloc, args[1], f32,
                                         /*isUnsignedCast=*/false);
          Value sum = arith::AddFOp::create(
              nb, nloc, args[2], arith::MulFOp::create(nb, nloc, x, y));
          linalg::YieldOp::create(nb, nloc, sum);
        });

    // The parts summed into the output: on a zero-filled output, written
    // over the fill's destination (the fill dropped); else added to it.
    ProductDestination destination = getProductDestination(c);
    Value dest = destination.dest;
    bool accumulate = destination.accumulate;
    SmallVector<Value> slices;
    auto sliceType = RankedTensorType::get({m, n}, f32);
    for (int64_t s = 0; s < parts; ++s)
      slices.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, product.getResult(0),
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(s),
                                 rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                 rewriter.getIndexAttr(m),
                                 rewriter.getIndexAttr(n)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                 rewriter.getIndexAttr(1),
                                 rewriter.getIndexAttr(1)}));
    AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
    SmallVector<AffineMap> sumMaps(parts + 1, identity);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, c.getType(), slices, ValueRange{dest}, sumMaps,
        SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value total = args[0];
          for (Value next : args.slice(1, parts - 1))
            total = arith::AddFOp::create(nb, nloc, total, next);
          if (accumulate)
            total = arith::AddFOp::create(
                nb, nloc,
                convertScalarToDtype(nb, nloc, args.back(), f32,
                                     /*isUnsignedCast=*/false),
                total);
          linalg::YieldOp::create(
              nb, nloc,
              convertScalarToDtype(nb, nloc, total, out,
                                   /*isUnsignedCast=*/false));
        });
    rewriter.replaceOp(op, sum.getResult(0));
    return success();
  }
};

} // namespace

void populateWgmmaSplitKPatterns(RewritePatternSet &patterns, int64_t numSMs) {
  patterns.add<SplitWgmmaK>(patterns.getContext(), numSMs);
}

} // namespace mlir::qimeng
