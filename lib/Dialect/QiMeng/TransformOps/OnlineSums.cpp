//===- OnlineSums.cpp - A row's maximum and sum of exponentials at once ---===//

#include "QiMeng/Dialect/QiMeng/TransformOps/OnlineSums.h"

#include "LaneSharing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::lanes;

static Value buildMax(OpBuilder &b, Location loc, Value x, Value y,
                      OnlineMax kind) {
  if (kind == OnlineMax::MaximumF)
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxNumFOp::create(b, loc, x, y);
}

static Value buildFloat(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

static Value buildNegInfinity(OpBuilder &b, Location loc, Type type) {
  auto floatType = cast<FloatType>(type);
  return arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                           /*Negative=*/true)));
}

/// The maximum as the exponentials' offset: 0 for -inf (every term so far
/// is exp(-inf) = 0, and -inf - -inf would be NaN).
static Value buildOffset(OpBuilder &b, Location loc, Value max) {
  Type type = max.getType();
  Value isNegInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max,
                                         buildNegInfinity(b, loc, type));
  return arith::SelectOp::create(b, loc, isNegInf, buildFloat(b, loc, type, 0),
                                 max);
}

/// `v` in `type`: itself, or widened (an f16 maximum beside an f32 sum).
static Value widen(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return arith::ExtFOp::create(b, loc, type, v);
}

/// exp(value - offset) in `type`.
static Value buildExpOfDifference(OpBuilder &b, Location loc, Value value,
                                  Value offset, Type type) {
  Value difference = arith::SubFOp::create(b, loc, widen(b, loc, value, type),
                                           widen(b, loc, offset, type));
  return math::ExpOp::create(b, loc, difference);
}

std::pair<Value, Value> mlir::qimeng::buildOnlineSumStep(OpBuilder &b,
                                                         Location loc, Value x,
                                                         Value m, Value s,
                                                         OnlineMax kind) {
  Type type = s.getType();
  Value next = buildMax(b, loc, x, m, kind);
  Value grew = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, m);
  // One exponential: of the old maximum when x is the new one (the sum is
  // rescaled), else of x.
  Value term = arith::SelectOp::create(b, loc, grew, m, x);
  Value e = buildExpOfDifference(b, loc, term, buildOffset(b, loc, next), type);
  // x's own term when it is the new maximum, exp(x - x): 1, or NaN for an
  // infinite x, as (x - m') * 0 + 1 (no second exponential).
  Value own = arith::AddFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc,
                            arith::SubFOp::create(b, loc, x, next).getResult(),
                            buildFloat(b, loc, x.getType(), 0))
          .getResult(),
      buildFloat(b, loc, x.getType(), 1));
  Value rescaled = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, s, e).getResult(),
      widen(b, loc, own, type));
  Value added = arith::AddFOp::create(b, loc, s, e);
  Value sum = arith::SelectOp::create(b, loc, grew, rescaled, added);
  return {next, sum};
}

std::pair<Value, Value> mlir::qimeng::buildOnlineSumCombine(OpBuilder &b,
                                                            Location loc,
                                                            Value m1, Value s1,
                                                            Value m2, Value s2,
                                                            OnlineMax kind) {
  Type type = s1.getType();
  Value max = buildMax(b, loc, m1, m2, kind);
  Value offset = buildOffset(b, loc, max);
  auto scaled = [&](Value m, Value s) -> Value {
    return arith::MulFOp::create(b, loc, s,
                                 buildExpOfDifference(b, loc, m, offset, type));
  };
  Value sum = arith::AddFOp::create(b, loc, scaled(m1, s1), scaled(m2, s2));
  return {max, sum};
}

/// Whether `v` is the float constant `expected` (-inf when `negInf`).
static bool isFloatConstant(Value v, double expected, bool negInf = false) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  const APFloat &value = attr.getValue();
  if (negInf)
    return value.isInfinity() && value.isNegative();
  return value.isExactlyValue(expected);
}

/// `v` defined by an op of type OpTy (or null).
template <typename OpTy> static OpTy defOf(Value v) {
  return v ? v.getDefiningOp<OpTy>() : OpTy();
}

/// `v` without a widening (the inverse of widen).
static Value stripWidening(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return v;
}

/// Whether `v` is buildOffset(max).
static bool isOffsetOf(Value v, Value max) {
  auto select = defOf<arith::SelectOp>(v);
  if (!select || select.getFalseValue() != max ||
      !isFloatConstant(select.getTrueValue(), 0))
    return false;
  auto cmp = defOf<arith::CmpFOp>(select.getCondition());
  return cmp && cmp.getPredicate() == arith::CmpFPredicate::OEQ &&
         cmp.getLhs() == max &&
         isFloatConstant(cmp.getRhs(), 0, /*negInf=*/true);
}

std::optional<OnlineMax> mlir::qimeng::matchOnlineSum(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() < 1 || op.getNumDpsInits() != 2 ||
      op.getNumReductionLoops() != 1 || op->getNumRegions() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 2)
    return std::nullopt;
  SmallVector<BlockArgument> outs(op.getRegionOutputArgs());
  Value m = outs[0], s = outs[1];
  if (!isa<FloatType>(m.getType()) || !isa<FloatType>(s.getType()) ||
      m.getType().getIntOrFloatBitWidth() > s.getType().getIntOrFloatBitWidth())
    return std::nullopt;
  // The step's uses of the outputs, and no other: the element x is
  // computed from the inputs alone.
  if (!llvm::hasNItems(m.getUses(), 3) || !llvm::hasNItems(s.getUses(), 2))
    return std::nullopt;
  // m' = max(x, m)
  Value next = yield.getOperand(0);
  std::optional<OnlineMax> kind;
  Operation *maxOp = next.getDefiningOp();
  if (isa_and_nonnull<arith::MaxNumFOp>(maxOp))
    kind = OnlineMax::MaxNumF;
  else if (isa_and_nonnull<arith::MaximumFOp>(maxOp))
    kind = OnlineMax::MaximumF;
  if (!kind || maxOp->getOperand(1) != m)
    return std::nullopt;
  Value x = maxOp->getOperand(0);
  // s' = select(x > m, s * e + 1, s + e), e = exp(select(x > m, m, x) -
  // offset(m'))
  auto sum = defOf<arith::SelectOp>(yield.getOperand(1));
  if (!sum)
    return std::nullopt;
  auto grew = defOf<arith::CmpFOp>(sum.getCondition());
  if (!grew || grew.getPredicate() != arith::CmpFPredicate::OGT ||
      grew.getLhs() != x || grew.getRhs() != m)
    return std::nullopt;
  auto rescaled = defOf<arith::AddFOp>(sum.getTrueValue());
  auto added = defOf<arith::AddFOp>(sum.getFalseValue());
  if (!rescaled || !added || added.getLhs() != s)
    return std::nullopt;
  // own = (x - m') * 0 + 1
  auto own = defOf<arith::AddFOp>(stripWidening(rescaled.getRhs()));
  auto ownProduct = own ? defOf<arith::MulFOp>(own.getLhs()) : nullptr;
  auto ownDifference =
      ownProduct ? defOf<arith::SubFOp>(ownProduct.getLhs()) : nullptr;
  if (!ownDifference || !isFloatConstant(own.getRhs(), 1) ||
      !isFloatConstant(ownProduct.getRhs(), 0) || ownDifference.getLhs() != x ||
      ownDifference.getRhs() != next)
    return std::nullopt;
  auto product = defOf<arith::MulFOp>(rescaled.getLhs());
  if (!product || product.getLhs() != s || product.getRhs() != added.getRhs())
    return std::nullopt;
  auto exp = defOf<math::ExpOp>(added.getRhs());
  auto difference = exp ? defOf<arith::SubFOp>(exp.getOperand()) : nullptr;
  if (!difference || !isOffsetOf(stripWidening(difference.getRhs()), next))
    return std::nullopt;
  auto term = defOf<arith::SelectOp>(stripWidening(difference.getLhs()));
  if (!term || term.getCondition() != grew.getResult() ||
      term.getTrueValue() != m || term.getFalseValue() != x)
    return std::nullopt;
  return kind;
}

LogicalResult mlir::qimeng::distributeOnlineSum(gpu::LaunchOp launch,
                                                linalg::LinalgOp op,
                                                int64_t lanes) {
  std::optional<OnlineMax> kind = matchOnlineSum(op);
  if (!kind || !op.hasPureBufferSemantics())
    return op->emitOpError() << "cannot be shared by lanes as an online sum: "
                                "it needs buffers and the online step's body";
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<LaneReduction> reduction = buildLaneReduction(b, launch, op, lanes);
  if (failed(reduction))
    return failure();
  const Sharing &sharing = reduction->sharing;
  Value zero = sharing.zero;
  Type maxType = op.getRegionOutputArgs()[0].getType();
  Type sumType = op.getRegionOutputArgs()[1].getType();

  // Each thread folds its slice from the empty sum (-inf, 0), in groups of
  // contiguous elements (one vector load per operand).
  SmallVector<Value> partial =
      foldLaneSlice(b, loc, op, *reduction,
                    ValueRange{buildNegInfinity(b, loc, maxType),
                               buildFloat(b, loc, sumType, 0)});
  auto combine = [&](OpBuilder &nb, ValueRange mine,
                     ValueRange other) -> SmallVector<Value> {
    auto [m, s] = buildOnlineSumCombine(nb, loc, mine[0], mine[1], other[0],
                                        other[1], *kind);
    return {m, s};
  };
  SmallVector<Value> total = partial;
  for (int64_t offset = 1; offset < kWarpSize; offset *= 2)
    total = combine(b, total,
                    {shuffleXor(b, loc, total[0], offset),
                     shuffleXor(b, loc, total[1], offset)});
  if (sharing.isBlock())
    total = combineWarps(b, loc, launch, sharing, total, combine);
  // The first thread folds the total into the outputs' values.
  OpOperand *maxOut = op.getDpsInitOperand(0);
  OpOperand *sumOut = op.getDpsInitOperand(1);
  SmallVector<Value> maxIndices =
      getIndices(op, *maxOut, reduction->loop, zero, zero);
  SmallVector<Value> sumIndices =
      getIndices(op, *sumOut, reduction->loop, zero, zero);
  scf::IfOp::create(
      b, loc, isFirstThread(b, loc, sharing), [&](OpBuilder &nb, Location nl) {
        SmallVector<Value> old = {
            memref::LoadOp::create(nb, nl, maxOut->get(), maxIndices),
            memref::LoadOp::create(nb, nl, sumOut->get(), sumIndices)};
        SmallVector<Value> result = combine(nb, old, total);
        memref::StoreOp::create(nb, nl, result[0], maxOut->get(), maxIndices);
        memref::StoreOp::create(nb, nl, result[1], sumOut->get(), sumIndices);
        scf::YieldOp::create(nb, nl);
      });
  // The block's next op reads what this one wrote.
  if (sharing.isBlock())
    gpu::BarrierOp::create(b, loc);
  op->erase();
  return success();
}
