//===- WgmmaSplitK.cpp - Few output tiles on wgmma: K in parts ------------===//

#include "WgmmaSplitK.h"

#include "Gathers.h"

#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::qimeng {
namespace {

/// Marks the scf.if nest of a dynamic M's versions: the matmuls in its
/// branches (each version's, and a dynamic M's in the last else) are not
/// versioned again.
constexpr StringLiteral kRowVersionsAttr = "qimeng.row_versions";

/// The matmul `op` as the sum of its K's `parts` partial products; returns
/// the sum (of `op`'s result type). Builds before `op`, which it leaves;
/// the product keeps `op`'s bound on M (kMaxRowsAttrName).
Value splitK(RewriterBase &rewriter, linalg::LinalgOp op, int64_t parts) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  bool nk = readsNKRhs(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t m = bounds[0], n = bounds[1], k = bounds[2];
  int64_t part = k / parts;
  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  Type in = getElementTypeOrSelf(a);
  Type out = getElementTypeOrSelf(c);
  Type f32 = rewriter.getF32Type();
  // M as a size: a constant, or A's rows (a dynamic M).
  OpFoldResult rows = rewriter.getIndexAttr(m);
  if (ShapedType::isDynamic(m))
    rows = tensor::DimOp::create(rewriter, loc, a, 0).getResult();
  auto index = [&](int64_t value) -> OpFoldResult {
    return rewriter.getIndexAttr(value);
  };

  // A (m, K) as (m, S, Kc); B (K, n) as (S, Kc, n), or (n, K) as (n, S,
  // Kc): views of the same buffers.
  auto expand = [&](Value value, ArrayRef<int64_t> shape,
                    ArrayRef<OpFoldResult> sizes,
                    ArrayRef<ReassociationIndices> groups) -> Value {
    return tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(shape, in), value, groups, sizes);
  };
  Value aParts = expand(a, {m, parts, part}, {rows, index(parts), index(part)},
                        {{0}, {1, 2}});
  Value bParts =
      nk ? expand(b, {n, parts, part}, {index(n), index(parts), index(part)},
                  {{0}, {1, 2}})
         : expand(b, {parts, part, n}, {index(parts), index(part), index(n)},
                  {{0, 1}, {2}});
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{index(parts), rows, index(n)}, f32);
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
  SmallVector<AffineMap> maps{
      dims({1, 0, 3}), nk ? dims({2, 0, 3}) : dims({0, 3, 2}), dims({0, 1, 2})};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
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
  if (Attribute maxRows = op->getAttr(kMaxRowsAttrName))
    product->setAttr(kMaxRowsAttrName, maxRows);

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
        ArrayRef<OpFoldResult>{index(s), index(0), index(0)},
        ArrayRef<OpFoldResult>{index(1), rows, index(n)},
        ArrayRef<OpFoldResult>{index(1), index(1), index(1)}));
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
        linalg::YieldOp::create(nb, nloc,
                                convertScalarToDtype(nb, nloc, total, out,
                                                     /*isUnsignedCast=*/false));
      });
  return sum.getResult(0);
}

/// The one user of `op`'s result when it is an elementwise generic on
/// tensors that reads it (the epilogue the plan fuses with the matmul),
/// else null.
linalg::GenericOp getElementwiseConsumer(linalg::LinalgOp op) {
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return nullptr;
  OpOperand &use = *result.getUses().begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || consumer->getBlock() != op->getBlock() ||
      !consumer.hasPureTensorSemantics() ||
      consumer.getNumParallelLoops() != consumer.getNumLoops() ||
      !consumer.isDpsInput(&use))
    return nullptr;
  return consumer;
}

struct SplitWgmmaK : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  SplitWgmmaK(MLIRContext *ctx, int64_t numSMs)
      : OpInterfaceRewritePattern(ctx), numSMs(numSMs) {}
  int64_t numSMs;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getNumDpsInputs() != 2)
      return rewriter.notifyMatchFailure(op, "not a matmul on tensors");
    // The kernel reads A (and B) as the matrices they reshape: slices of
    // larger tensors would be strided views.
    if (!isWholeBatchedOperand(op.getDpsInputOperand(0)->get()) ||
        !isWholeBatchedOperand(op.getDpsInputOperand(1)->get()))
      return rewriter.notifyMatchFailure(op, "an operand is a slice");
    if (int64_t parts = getWgmmaKSplits(op, numSMs); parts > 1) {
      rewriter.replaceOp(op, splitK(rewriter, op, parts));
      return success();
    }
    if (auto parent = dyn_cast<scf::IfOp>(op->getParentOp());
        parent && parent->hasAttr(kRowVersionsAttr))
      return rewriter.notifyMatchFailure(op, "a version on M already");
    SmallVector<WgmmaRowVersion> versions = getWgmmaRowVersions(op, numSMs);
    if (versions.empty())
      return rewriter.notifyMatchFailure(op, "enough output tiles");
    versionByRows(rewriter, op, versions);
    return success();
  }

  /// A dynamic M's versions: an scf.if nest on M, each version in a then
  /// branch (its matmul, split or whole, marked with its bound on M), a
  /// dynamic M's plan in the last else. The matmul's elementwise consumer
  /// goes into every branch, where the plan fuses it (with the sum of the
  /// parts, or with the matmul's epilogue).
  void versionByRows(PatternRewriter &rewriter, linalg::LinalgOp op,
                     ArrayRef<WgmmaRowVersion> versions) const {
    linalg::GenericOp consumer = getElementwiseConsumer(op);
    // A zero fill of the output only the matmul reads goes into every
    // branch too: each split version then writes the sum over it.
    auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    if (fill && !fill->hasOneUse())
      fill = nullptr;
    Operation *last = consumer ? consumer.getOperation() : op.getOperation();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(last);
    Value rows = tensor::DimOp::create(rewriter, loc,
                                       op.getDpsInputOperand(0)->get(), 0);
    // The matmul (and its consumer) again at the insertion point; returns
    // the matmul's copy and the results the branch yields.
    auto cloneVersion = [&]() -> std::pair<linalg::LinalgOp, ValueRange> {
      IRMapping mapping;
      if (fill)
        rewriter.clone(*fill, mapping);
      auto copy = cast<linalg::LinalgOp>(rewriter.clone(*op, mapping));
      if (!consumer)
        return {copy, copy->getResults()};
      return {copy, rewriter.clone(*consumer, mapping)->getResults()};
    };
    TypeRange types = last->getResultTypes();
    scf::IfOp outer;
    for (const WgmmaRowVersion &version : versions) {
      Value fits = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, rows,
          arith::ConstantIndexOp::create(rewriter, loc, version.maxRows));
      auto branch = scf::IfOp::create(rewriter, loc, types, fits,
                                      /*withElseRegion=*/true);
      branch->setAttr(kRowVersionsAttr, rewriter.getUnitAttr());
      if (outer)
        scf::YieldOp::create(rewriter, loc, branch.getResults());
      else
        outer = branch;
      rewriter.setInsertionPointToStart(branch.thenBlock());
      auto [copy, results] = cloneVersion();
      copy->setAttr(kMaxRowsAttrName,
                    rewriter.getI64IntegerAttr(version.maxRows));
      SmallVector<Value> yielded(results);
      if (version.parts > 1) {
        Value sum = splitK(rewriter, copy, version.parts);
        rewriter.replaceAllUsesWith(copy->getResult(0), sum);
        if (!consumer)
          yielded = {sum};
        rewriter.eraseOp(copy);
      }
      scf::YieldOp::create(rewriter, loc, yielded);
      rewriter.setInsertionPointToStart(branch.elseBlock());
    }
    scf::YieldOp::create(rewriter, loc, cloneVersion().second);
    rewriter.replaceOp(last, outer.getResults());
    if (consumer)
      rewriter.eraseOp(op);
    if (fill)
      rewriter.eraseOp(fill);
  }
};

} // namespace

void populateWgmmaSplitKPatterns(RewritePatternSet &patterns, int64_t numSMs) {
  patterns.add<SplitWgmmaK>(patterns.getContext(), numSMs);
}

} // namespace mlir::qimeng
