//===- Prepare.cpp - Bring kernels into the planner's form ----------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGPREPAREPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Decomposes an aggregate op (linalg.softmax) into its linalg generics.
struct DecomposeAggregate
    : public OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return rewriter.notifyMatchFailure(op, "cannot be decomposed");
    rewriter.replaceOp(op, *values);
    return success();
  }
};

/// Rewrites `tensor.pad` with static low padding and a constant padding value
/// into a linalg.generic: out[i] = in-bounds(i - low) ? src[clamp(i - low)] :
/// pad. Reads use clamped indices so they are always in bounds. Sizes may be
/// dynamic (a batch whose size the caller gives).
struct PadToGeneric : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = pad.getResultType();
    RankedTensorType sourceType = pad.getSourceType();
    if (sourceType.getRank() == 0 ||
        llvm::is_contained(sourceType.getShape(), 0))
      return rewriter.notifyMatchFailure(pad, "rank-0 or empty source");
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue)
      return rewriter.notifyMatchFailure(pad, "non-constant padding value");
    SmallVector<int64_t> low;
    for (OpFoldResult l : pad.getMixedLowPad()) {
      std::optional<int64_t> c = getConstantIntValue(l);
      if (!c)
        return rewriter.notifyMatchFailure(pad, "dynamic low padding");
      low.push_back(*c);
    }

    Location loc = pad.getLoc();
    int64_t rank = resultType.getRank();
    ReifiedRankedShapedTypeDims resultSizes;
    if (failed(reifyResultShapes(rewriter, pad, resultSizes)))
      return rewriter.notifyMatchFailure(pad, "result sizes not computable");
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultSizes.front(),
                                          resultType.getElementType());
    Value source = pad.getSource();
    // The last index of the source along each dimension.
    SmallVector<Value> lastIndex;
    for (int64_t d = 0; d < rank; ++d) {
      Value size = getValueOrCreateConstantIndexOp(
          rewriter, loc, tensor::getMixedSize(rewriter, loc, source, d));
      lastIndex.push_back(arith::SubIOp::create(
          rewriter, loc, size, arith::ConstantIndexOp::create(rewriter, loc, 1)));
    }
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{}, ValueRange{empty}, maps,
        iterators, [&](OpBuilder &b, Location loc, ValueRange) {
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          Value inBounds;
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, loc, d);
            Value lowD = arith::ConstantIndexOp::create(b, loc, low[d]);
            Value last = lastIndex[d];
            Value src = arith::SubIOp::create(b, loc, i, lowD);
            Value geZero = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, src, zero);
            Value leLast = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sle, src, last);
            Value ok = arith::AndIOp::create(b, loc, geZero, leLast);
            inBounds =
                inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
            Value clamped = arith::MaxSIOp::create(
                b, loc, arith::MinSIOp::create(b, loc, src, last), zero);
            indices.push_back(clamped);
          }
          Value value = tensor::ExtractOp::create(b, loc, source, indices);
          Value result =
              arith::SelectOp::create(b, loc, inBounds, value, padValue);
          linalg::YieldOp::create(b, loc, result);
        });
    rewriter.replaceOp(pad, generic.getResult(0));
    return success();
  }
};

/// Fuses an elementwise producer with one use into its consumer generic.
/// (Upstream's populateElementwiseOpsFusionPatterns would also replace unused
/// `outs` with tensor.empty, which breaks destination-passing kernels.)
struct FuseElementwiseProducer : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || !producer->hasOneUse() ||
          !linalg::areElementwiseOpsFusable(&operand))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceAllUsesExcept(original, replacement, fused->fusedOp);
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return rewriter.notifyMatchFailure(consumer, "no fusable producer");
  }
};

/// Gives a (batched) matmul generic whose right-hand operand is stored
/// transposed, (n, k) instead of (k, n), a transposed copy of it
/// (linalg.transpose into a new tensor) to read instead: the matmul plans
/// read k-rows of B from shared memory as vectors, which a transposed tile
/// turns into strided scalar loads (a copy costs one pass over B).
struct TransposeMatmulOperand : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    int64_t batch = getNumBatchLoops(op);
    if (batch < 0 || !op.hasPureTensorSemantics() ||
        op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not a (batched) matmul");
    unsigned k = op.getNumLoops() - 1;
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    unsigned n = out.getDimPosition(batch + 1);
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.getDimPosition(batch) != n || map.getDimPosition(batch + 1) != k)
        continue;
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        return rewriter.notifyMatchFailure(op, "dynamic or unusual operand");
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      std::swap(permutation[batch], permutation[batch + 1]);
      SmallVector<int64_t> shape =
          applyPermutation(type.getShape(), permutation);
      Location loc = op.getLoc();
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
      Value transposed = linalg::TransposeOp::create(
                             rewriter, loc, input->get(), empty, permutation)
                             ->getResult(0);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      SmallVector<AffineExpr> results(map.getResults());
      std::swap(results[batch], results[batch + 1]);
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      rewriter.modifyOpInPlace(op, [&] {
        input->set(transposed);
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no transposed operand");
  }
};

/// Destination-passing style: a tensor argument that a linalg op uses as its
/// output (`outs`) is where the result goes, so bufferization may write it in
/// place; every other tensor argument is an input and must stay unchanged.
/// Explicit `bufferization.writable` attributes are kept.
void markDestinationArguments(func::FuncOp func) {
  if (func.isExternal())
    return;
  llvm::SmallDenseSet<unsigned> destinations;
  func.walk([&](DestinationStyleOpInterface op) {
    for (OpOperand &init : op.getDpsInitsMutable())
      if (auto arg = dyn_cast<BlockArgument>(init.get());
          arg && arg.getOwner() == &func.getBody().front())
        destinations.insert(arg.getArgNumber());
  });
  MLIRContext *ctx = func.getContext();
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<TensorType>(arg.getType()) ||
        func.getArgAttr(arg.getArgNumber(), "bufferization.writable"))
      continue;
    func.setArgAttr(
        arg.getArgNumber(), "bufferization.writable",
        BoolAttr::get(ctx, destinations.contains(arg.getArgNumber())));
  }
}

/// Rejects a `tensor.dim` or `memref.dim` whose constant index is not a
/// dimension of its operand: the verifier lets it pass (its result is
/// undefined) and upstream's folders crash on it.
static LogicalResult checkDimIndices(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    Value source, index;
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else if (auto dim = dyn_cast<memref::DimOp>(op)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else {
      return WalkResult::advance();
    }
    auto shaped = dyn_cast<ShapedType>(source.getType());
    std::optional<int64_t> i = getConstantIntValue(index);
    if (!shaped || !shaped.hasRank() || !i ||
        (*i >= 0 && *i < shaped.getRank()))
      return WalkResult::advance();
    op->emitOpError() << "reads dimension " << *i << " of a value of type "
                      << shaped << ", which has " << shaped.getRank()
                      << " dimension(s)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The smallest and largest values of `expr` over the loop box [0, ranges)
/// (the whole int64 range on overflow), or std::nullopt when `expr` is not
/// linear with constant coefficients or a range is dynamic.
static std::optional<std::pair<int64_t, int64_t>>
getRange(AffineExpr expr, ArrayRef<int64_t> ranges) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::make_pair(constant.getValue(), constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    int64_t range = ranges[dim.getPosition()];
    if (ShapedType::isDynamic(range) || range <= 0)
      return std::nullopt;
    return std::make_pair<int64_t, int64_t>(0, range - 1);
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  auto lhs = getRange(binary.getLHS(), ranges);
  auto rhs = getRange(binary.getRHS(), ranges);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t a, b, c, d;
  // An overflow is out of any buffer's bounds.
  auto overflowed = std::make_pair(std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(lhs->first, rhs->first, a) ||
        llvm::AddOverflow(lhs->second, rhs->second, b))
      return overflowed;
    return std::make_pair(a, b);
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(lhs->first, rhs->first, a) ||
        llvm::MulOverflow(lhs->first, rhs->second, b) ||
        llvm::MulOverflow(lhs->second, rhs->first, c) ||
        llvm::MulOverflow(lhs->second, rhs->second, d))
      return overflowed;
    return std::make_pair(std::min({a, b, c, d}), std::max({a, b, c, d}));
  default:
    return std::nullopt;
  }
}

/// Rejects a linalg op whose indexing maps reach outside a static operand
/// over its static loops (a convolution with a negative dilation, say):
/// the verifier lets some through and the lowering would crash on them or
/// read outside the buffer.
static LogicalResult checkAccessesInBounds(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) { return r == 0; }))
    return success();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasRank())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (d >= static_cast<size_t>(type.getRank()) || type.isDynamicDim(d))
        continue;
      std::optional<std::pair<int64_t, int64_t>> range =
          getRange(expr, ranges);
      if (!range)
        continue;
      if (range->first < 0 || range->second >= type.getDimSize(d))
        return op->emitOpError()
               << "reads operand " << operand.getOperandNumber()
               << " along dimension " << d << " at indices " << range->first
               << " to " << range->second << ", outside its size "
               << type.getDimSize(d) << " (strides, dilations or shapes "
               << "that do not fit)";
    }
  }
  return success();
}

class QiMengPreparePass
    : public impl::QiMengPreparePassBase<QiMengPreparePass> {
public:
  void runOnOperation() override {
    if (failed(checkDimIndices(getOperation())))
      return signalPassFailure();
    WalkResult inBounds = getOperation().walk([](linalg::LinalgOp op) {
      return failed(checkAccessesInBounds(op)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (inBounds.wasInterrupted())
      return signalPassFailure();
    getOperation().walk(markDestinationArguments);
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<DecomposeAggregate, PadToGeneric, FuseElementwiseProducer,
                 TransposeMatmulOperand>(ctx);
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(10000);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation().emitError()
          << "preparing kernels for planning did not converge";
      return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::qimeng
