//===- IntegerPowers.cpp - math.fpowi without a mistyped libdevice call ---===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstdint>
#include <limits>

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGINTEGERPOWERSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// The constant exponent of `op` (a scalar or a splat), if it has one.
std::optional<int64_t> getConstantExponent(math::FPowIOp op) {
  APInt value;
  if (matchPattern(op.getRhs(), m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

/// 1.0 of the floating-point `type` (a scalar or vector type).
Value createOne(PatternRewriter &rewriter, Location loc, Type type) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  return mlir::createScalarOrSplatConstant(
      rewriter, loc, type, APFloat::getOne(element.getFloatSemantics()));
}

/// x^n for a constant n by squaring: the lowest bit first, as libdevice
/// does, and one reciprocal at the end for a negative n (x^0 is 1, NaN
/// included).
struct ConstantPower : public OpRewritePattern<math::FPowIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::FPowIOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> exponent = getConstantExponent(op);
    if (!exponent)
      return rewriter.notifyMatchFailure(op, "the exponent is not a constant");
    Location loc = op.getLoc();
    Type type = op.getType();
    arith::FastMathFlagsAttr fastMath = op.getFastmathAttr();
    // The magnitude as unsigned: -INT64_MIN does not fit an int64_t.
    uint64_t magnitude = *exponent < 0 ? 0 - static_cast<uint64_t>(*exponent)
                                       : static_cast<uint64_t>(*exponent);
    Value result, square = op.getLhs();
    while (magnitude) {
      if (magnitude & 1)
        result = result ? arith::MulFOp::create(rewriter, loc, result, square,
                                                fastMath)
                        : square;
      magnitude >>= 1;
      if (magnitude)
        square = arith::MulFOp::create(rewriter, loc, square, square, fastMath);
    }
    if (!result)
      result = createOne(rewriter, loc, type);
    if (*exponent < 0)
      result = arith::DivFOp::create(
          rewriter, loc, createOne(rewriter, loc, type), result, fastMath);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A variable exponent wider than i32 becomes an i32 of the same parity,
/// clamped: beyond 2^31 every base gives the same power (0, ±1, ±inf or NaN)
/// for any exponent of that sign and parity.
struct NarrowExponent : public OpRewritePattern<math::FPowIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::FPowIOp op,
                                PatternRewriter &rewriter) const override {
    Value exponent = op.getRhs();
    Type type = exponent.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    if (width <= 32)
      return rewriter.notifyMatchFailure(op, "the exponent fits the call");
    Location loc = op.getLoc();
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
    auto constant = [&](int64_t value) {
      return mlir::createScalarOrSplatConstant(rewriter, loc, type, value);
    };
    Value parity = arith::AndIOp::create(rewriter, loc, exponent, constant(1));
    // kMax - 1 and kMin are even; adding the parity keeps the exponent's.
    Value high =
        arith::AddIOp::create(rewriter, loc, constant(kMax - 1), parity);
    Value low = arith::AddIOp::create(rewriter, loc, constant(kMin), parity);
    Value above = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sgt, exponent, constant(kMax));
    Value below = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, exponent, constant(kMin));
    Value clamped = arith::SelectOp::create(
        rewriter, loc, above, high,
        arith::SelectOp::create(rewriter, loc, below, low, exponent));
    Type narrow = rewriter.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      narrow = shaped.clone(narrow);
    Value narrowed = arith::TruncIOp::create(rewriter, loc, narrow, clamped);
    rewriter.replaceOpWithNewOp<math::FPowIOp>(op, op.getLhs(), narrowed,
                                               op.getFastmathAttr());
    return success();
  }
};

class QiMengIntegerPowersPass
    : public impl::QiMengIntegerPowersPassBase<QiMengIntegerPowersPass> {
public:
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // A constant exponent is expanded before it could be narrowed.
    patterns.add<ConstantPower>(&getContext(), /*benefit=*/2);
    patterns.add<NarrowExponent>(&getContext(), /*benefit=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::qimeng
