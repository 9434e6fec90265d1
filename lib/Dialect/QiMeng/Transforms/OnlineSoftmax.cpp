//===- OnlineSoftmax.cpp - A row's maximum and sum of exponentials at once ===//
//
// Softmax's row maximum and its sum of exp(x - max) become one reduction
// with two outputs (OnlineSums.h): the row is read once for both.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/OnlineSums.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/RowGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGONLINESOFTMAXPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// The fill that starts `init` with a float constant accepted by `accepts`,
/// or null.
linalg::FillOp getFloatFill(Value init,
                            llvm::function_ref<bool(const APFloat &)> accepts) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  FloatAttr value;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      !accepts(value.getValue()))
    return nullptr;
  return fill;
}

/// Whether `op` reduces along its last loop alone, on tensors, into one
/// output of float elements.
bool isRowReduction(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return op.hasPureTensorSemantics() && op.getNumDpsInputs() >= 1 &&
         op.getNumDpsInits() == 1 && op.getNumReductionLoops() == 1 &&
         iterators.size() >= 2 &&
         iterators.back() == utils::IteratorType::reduction &&
         isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0]));
}

/// A row maximum and the sum of exponentials that reads it.
struct SoftmaxSums {
  linalg::GenericOp max, sum;
  OnlineMax kind;
  /// The element the maximum folds in, in `max`'s body: an input, or
  /// computed from the inputs by elementwise producers fused in.
  Value element;
};

/// The op of `op`'s body that folds `value` into the output `out` by
/// yielding `combiner(value, out)` (either operand order), with `out` read
/// nowhere else; null otherwise.
Operation *getFold(linalg::GenericOp op, BlockArgument out, Value &value) {
  if (!out.hasOneUse())
    return nullptr;
  Operation *combiner = *out.user_begin();
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      !combiner->getResult(0).hasOneUse() ||
      op.getBody()->getTerminator()->getOperand(0) != combiner->getResult(0))
    return nullptr;
  value = combiner->getOperand(combiner->getOperand(0) == out ? 1 : 0);
  return value == out ? nullptr : combiner;
}

/// The row maximum `op` (yield max(x, out) for an element x of the inputs,
/// started from -inf, or from NaN for maxnumf, which skips it), or
/// std::nullopt.
std::optional<std::pair<OnlineMax, Value>> matchRowMax(linalg::GenericOp op) {
  if (!isRowReduction(op))
    return std::nullopt;
  Value element;
  Operation *max = getFold(op, op.getRegionOutputArgs()[0], element);
  std::optional<OnlineMax> kind;
  if (isa_and_nonnull<arith::MaxNumFOp>(max))
    kind = OnlineMax::MaxNumF;
  else if (isa_and_nonnull<arith::MaximumFOp>(max))
    kind = OnlineMax::MaximumF;
  // maximumf from NaN is NaN whatever the row holds.
  if (!kind || !getFloatFill(op.getDpsInits()[0], [&](const APFloat &v) {
        return (v.isInfinity() && v.isNegative()) ||
               (v.isNaN() && *kind == OnlineMax::MaxNumF);
      }))
    return std::nullopt;
  return std::make_pair(*kind, element);
}

/// Whether `a` (in `opA`'s body) and `b` (in `opB`'s body) compute the same
/// value for every iteration: the same input read through the same map, or
/// the same ops on such values.
bool isSameElement(linalg::GenericOp opA, Value a, linalg::GenericOp opB,
                   Value b) {
  auto argA = dyn_cast<BlockArgument>(a);
  auto argB = dyn_cast<BlockArgument>(b);
  if (argA || argB) {
    if (!argA || !argB || argA.getOwner() != opA.getBody() ||
        argB.getOwner() != opB.getBody())
      return false;
    OpOperand *inA = opA.getMatchingOpOperand(argA);
    OpOperand *inB = opB.getMatchingOpOperand(argB);
    return opA.isDpsInput(inA) && opB.isDpsInput(inB) &&
           inA->get() == inB->get() &&
           opA.getMatchingIndexingMap(inA) == opB.getMatchingIndexingMap(inB);
  }
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  // Values from outside the bodies (constants hoisted out of them).
  if (defA->getBlock() != opA.getBody() || defB->getBlock() != opB.getBody())
    return a == b;
  if (cast<OpResult>(a).getResultNumber() !=
      cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      defA, defB,
      [&](Value x, Value y) { return success(isSameElement(opA, x, opB, y)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Whether `op` sums exp(x - m) over the rows `sums.max` reduces, x the
/// same element and m its result read as it writes it, from 0.
bool isSumOfExponentials(linalg::GenericOp op, const SoftmaxSums &sums) {
  linalg::GenericOp max = sums.max;
  if (!isRowReduction(op) ||
      op.getIteratorTypesArray() != max.getIteratorTypesArray() ||
      op.getStaticLoopRanges() != max.getStaticLoopRanges() ||
      op.getIndexingMapsArray().back() != max.getIndexingMapsArray().back() ||
      !getFloatFill(op.getDpsInits()[0],
                    [](const APFloat &v) { return v.isPosZero(); }))
    return false;
  Value term;
  auto add = dyn_cast_or_null<arith::AddFOp>(
      getFold(op, op.getRegionOutputArgs()[0], term));
  // A 16-bit softmax sums its 16-bit exponentials in f32.
  if (auto ext = term ? term.getDefiningOp<arith::ExtFOp>() : nullptr)
    term = ext.getIn();
  auto exp = term ? term.getDefiningOp<math::ExpOp>() : nullptr;
  auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : nullptr;
  if (!add || !sub)
    return false;
  auto maxArg = dyn_cast<BlockArgument>(sub.getRhs());
  if (!maxArg || maxArg.getOwner() != op.getBody())
    return false;
  OpOperand *maxIn = op.getMatchingOpOperand(maxArg);
  return op.isDpsInput(maxIn) && maxIn->get() == max.getResult(0) &&
         op.getMatchingIndexingMap(maxIn) ==
             max.getIndexingMapsArray().back() &&
         isSameElement(max, sums.element, op, sub.getLhs());
}

/// The sum of exponentials over `max`'s rows, when the pair qualifies.
std::optional<SoftmaxSums> matchSoftmaxSums(linalg::GenericOp max) {
  std::optional<std::pair<OnlineMax, Value>> row = matchRowMax(max);
  if (!row)
    return std::nullopt;
  // A thread per row reads its row in vectors, once for both reductions.
  if (takesThreadPerRow(max.getStaticLoopRanges().back(), kWarpSize))
    return std::nullopt;
  SoftmaxSums sums{max, nullptr, row->first, row->second};
  for (Operation *user : max->getUsers())
    if (auto generic = dyn_cast<linalg::GenericOp>(user);
        generic && isSumOfExponentials(generic, sums)) {
      sums.sum = generic;
      break;
    }
  if (!sums.sum || sums.sum->getBlock() != max->getBlock())
    return std::nullopt;
  // The fused reduction takes the sum's place: every other reader of the
  // maximum must come after it.
  for (Operation *user : max->getUsers())
    if (user != sums.sum && (user->getBlock() != sums.sum->getBlock() ||
                             user->isBeforeInBlock(sums.sum)))
      return std::nullopt;
  return sums;
}

/// Replaces the pair by one online sum at the sum's place.
void fuse(RewriterBase &rewriter, const SoftmaxSums &sums) {
  linalg::GenericOp max = sums.max, sum = sums.sum;
  Location loc = sum.getLoc();
  rewriter.setInsertionPoint(sum);
  auto maxFill = max.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  auto sumFill = sum.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  Type type = getElementTypeOrSelf(max.getResult(0));
  auto floatType = cast<FloatType>(type);
  Value negInf = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/true)));
  Value maxInit =
      linalg::FillOp::create(rewriter, loc, negInf, maxFill.getOutputs()[0])
          .getResult(0);
  Value sumInit = linalg::FillOp::create(rewriter, loc, sumFill.getInputs()[0],
                                         sumFill.getOutputs()[0])
                      .getResult(0);
  SmallVector<AffineMap> maps = max.getIndexingMapsArray();
  maps.push_back(maps.back());
  auto online = linalg::GenericOp::create(
      rewriter, loc, TypeRange{maxInit.getType(), sumInit.getType()},
      max.getDpsInputs(), ValueRange{maxInit, sumInit}, maps,
      max.getIteratorTypesArray(),
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        // The maximum's body up to its fold gives the element.
        unsigned inputs = max.getNumDpsInputs();
        IRMapping mapping;
        for (unsigned i = 0; i < inputs; ++i)
          mapping.map(max.getBody()->getArgument(i), args[i]);
        Operation *fold = *max.getRegionOutputArgs()[0].user_begin();
        for (Operation &inner : max.getBody()->without_terminator())
          if (&inner != fold)
            b.clone(inner, mapping);
        auto [m, s] = buildOnlineSumStep(
            b, bodyLoc, mapping.lookupOrDefault(sums.element), args[inputs],
            args[inputs + 1], sums.kind);
        linalg::YieldOp::create(b, bodyLoc, ValueRange{m, s});
      });
  rewriter.replaceOp(sum, online.getResult(1));
  rewriter.replaceOp(max, online.getResult(0));
  for (linalg::FillOp fill : {maxFill, sumFill})
    if (fill->use_empty())
      rewriter.eraseOp(fill);
}

struct QiMengOnlineSoftmaxPass
    : impl::QiMengOnlineSoftmaxPassBase<QiMengOnlineSoftmaxPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SoftmaxSums> pairs;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<SoftmaxSums> sums = matchSoftmaxSums(op))
        pairs.push_back(*sums);
    });
    IRRewriter rewriter(&getContext());
    for (const SoftmaxSums &sums : pairs)
      fuse(rewriter, sums);
  }
};

} // namespace
} // namespace mlir::qimeng
