//===- WidenAccumulators.cpp - Reductions in f64 for references ----------===//

#include "QiMeng/Transforms/Linalg/Passes.h"

#include "ConvertTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGWIDENACCUMULATORSPASS
#include "QiMeng/Transforms/Linalg/Passes.h.inc"

namespace {

/// A float type narrower than f64 (what gets widened).
bool isNarrowFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() < 64;
}

/// Whether every op of `body` can be recomputed with f64 in place of its
/// narrow float types: arith and math ops (bit casts excepted) and
/// linalg.index.
bool isWidenable(Block &body) {
  for (Operation &op : body) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(op))
      continue;
    if (isa<arith::BitcastOp>(op))
      return false;
    StringRef dialect = op.getName().getDialectNamespace();
    if (dialect != "arith" && dialect != "math")
      return false;
    if (op.getNumRegions() != 0)
      return false;
  }
  return true;
}

/// Rewrites `op` to compute in f64; false when it is left as it is.
bool widen(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      !isWidenable(*op.getBody()))
    return false;
  // f32 accumulators only: a program that accumulates in f16 or bf16 asks
  // for that rounding (an f64 sum of 1009 f16 terms differs from it by
  // percents, beyond the f16 tolerance), so those keep their semantics.
  bool anyF32 = false;
  for (Value init : op.getDpsInits()) {
    Type element = getElementTypeOrSelf(init.getType());
    if (isNarrowFloat(element) && !element.isF32())
      return false;
    anyF32 |= element.isF32();
  }
  if (!anyF32)
    return false;
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type f64 = b.getF64Type();
  auto widened = [&](Type type) -> Type {
    if (isNarrowFloat(type))
      return f64;
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      if (isNarrowFloat(tensor.getElementType()))
        return tensor.clone(f64);
    return type;
  };
  SmallVector<Value> inits;
  for (Value init : op.getDpsInits())
    inits.push_back(isNarrowFloat(getElementTypeOrSelf(init.getType()))
                        ? convertTensor(b, loc, init, f64)
                        : init);
  SmallVector<Type> resultTypes;
  for (Value init : inits)
    resultTypes.push_back(init.getType());
  auto wide = linalg::GenericOp::create(
      b, loc, resultTypes, op.getDpsInputs(), inits, op.getIndexingMapsArray(),
      op.getIteratorTypesArray());
  wide->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  // The body: narrow float arguments extended, every op recomputed with f64
  // in place of narrow float types.
  Block &old = *op.getBody();
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (BlockArgument arg : old.getArguments()) {
    bool isInit = arg.getArgNumber() >= op.getNumDpsInputs();
    argTypes.push_back(isInit ? getElementTypeOrSelf(
                                    inits[arg.getArgNumber() -
                                          op.getNumDpsInputs()]
                                        .getType())
                              : arg.getType());
    argLocs.push_back(arg.getLoc());
  }
  Block *body = b.createBlock(&wide.getRegion(), {}, argTypes, argLocs);
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [oldArg, newArg] :
       llvm::zip(old.getArguments(), body->getArguments())) {
    Value value = newArg;
    if (isNarrowFloat(value.getType()))
      value = arith::ExtFOp::create(b, loc, f64, value);
    mapping.map(oldArg, value);
  }
  for (Operation &inner : old) {
    // Narrow float values from above the body (constants of the function)
    // are extended inside it.
    for (Value operand : inner.getOperands())
      if (!mapping.contains(operand) && isNarrowFloat(operand.getType()))
        mapping.map(operand, arith::ExtFOp::create(b, loc, f64, operand));
    if (auto yield = dyn_cast<linalg::YieldOp>(inner)) {
      SmallVector<Value> values;
      for (auto [value, init] : llvm::zip(yield.getValues(), inits)) {
        Value mapped = mapping.lookupOrDefault(value);
        Type want = getElementTypeOrSelf(init.getType());
        if (mapped.getType() != want)
          mapped = isNarrowFloat(want)
                       ? Value(arith::TruncFOp::create(b, loc, want, mapped))
                       : Value(arith::ExtFOp::create(b, loc, want, mapped));
        values.push_back(mapped);
      }
      linalg::YieldOp::create(b, yield.getLoc(), values);
      continue;
    }
    // An extension to a narrow float is exact in f64: the value itself. A
    // truncation keeps its rounding (the program asks for it): rounded to
    // its type, then extended again.
    if (isa<arith::ExtFOp, arith::TruncFOp>(inner) &&
        isNarrowFloat(inner.getResult(0).getType()) &&
        mapping.lookupOrDefault(inner.getOperand(0)).getType() == f64) {
      Value source = mapping.lookupOrDefault(inner.getOperand(0));
      if (isa<arith::TruncFOp>(inner))
        source = arith::ExtFOp::create(
            b, loc, f64,
            arith::TruncFOp::create(b, loc, inner.getResult(0).getType(),
                                    source)
                .getResult());
      mapping.map(inner.getResult(0), source);
      continue;
    }
    // An extension to f64 of a value already widened: that value.
    if (isa<arith::ExtFOp>(inner) &&
        mapping.lookupOrDefault(inner.getOperand(0)).getType() ==
            inner.getResult(0).getType()) {
      mapping.map(inner.getResult(0),
                  mapping.lookupOrDefault(inner.getOperand(0)));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      if (auto value = dyn_cast<FloatAttr>(constant.getValue());
          value && isNarrowFloat(value.getType())) {
        mapping.map(constant.getResult(),
                    arith::ConstantOp::create(
                        b, loc, b.getF64FloatAttr(value.getValueAsDouble())));
        continue;
      }
    }
    Operation *copy = b.clone(inner, mapping);
    for (OpResult result : copy->getResults())
      result.setType(widened(result.getType()));
    for (auto [from, to] : llvm::zip(inner.getResults(), copy->getResults()))
      mapping.map(from, to);
  }
  // Back to the original types, into the original destinations (a
  // function's output argument stays the buffer written).
  b.setInsertionPointAfter(wide);
  for (auto [result, wideResult, init] :
       llvm::zip(op.getResults(), wide.getResults(), op.getDpsInits())) {
    Value replacement = wideResult;
    if (wideResult.getType() != result.getType())
      replacement = convertTensor(b, loc, wideResult,
                                  getElementTypeOrSelf(result.getType()), init);
    result.replaceAllUsesWith(replacement);
  }
  op.erase();
  return true;
}

class QiMengWidenAccumulatorsPass
    : public impl::QiMengWidenAccumulatorsPassBase<
          QiMengWidenAccumulatorsPass> {
public:
  void runOnOperation() override {
    // Named reductions (matmul, reduce, ...) as generics first.
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && op.getNumReductionLoops() > 0 &&
          op.hasPureTensorSemantics())
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      widen(op);
  }
};

} // namespace
} // namespace mlir::qimeng
