//===- Epilogues.cpp - Elementwise consumers run in a matmul kernel -------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/Epilogues.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

std::string mlir::qimeng::whyNotEpilogueConsumer(linalg::GenericOp consumer,
                                                 Value result, bool inPlace) {
  // (m, n), after the batch when the matmul has one.
  auto shaped = dyn_cast<ShapedType>(result.getType());
  int64_t loops = shaped ? shaped.getRank() : 0;
  if (consumer.getNumLoops() != loops || consumer.getNumReductionLoops() != 0 ||
      consumer.getNumDpsInits() != 1)
    return "it is not elementwise over the matmul's (m, n) with one output";
  auto identity =
      AffineMap::getMultiDimIdentityMap(loops, consumer.getContext());
  if (consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0)) !=
      identity)
    return "it does not write its output with the identity map";
  bool readsResult = false;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(input);
    if (input->get() == result) {
      if (map != identity)
        return "it reads the matmul's result through another map than the "
               "identity";
      readsResult = true;
    } else if (!map.isProjectedPermutation()) {
      return "it reads an operand through a map that is not a projection";
    }
  }
  OpOperand *init = consumer.getDpsInitOperand(0);
  if (init->get() == result) {
    if (!inPlace)
      return "it writes the matmul's output in place";
    // Updated in place (`outs` the result, as `y += b` is written).
    readsResult |= !consumer.getMatchingBlockArgument(init).use_empty();
  }
  if (!readsResult)
    return "it does not read the matmul's result";
  for (Operation &op : consumer.getBody()->without_terminator()) {
    StringRef dialect = op.getName().getDialectNamespace();
    if ((dialect != "arith" && dialect != "math") || op.getNumRegions() ||
        isa<arith::BitcastOp>(op))
      return "its body computes with other ops than arith and math";
  }
  return "";
}

Value mlir::qimeng::applyEpilogueConsumer(OpBuilder &b, Location loc,
                                          linalg::GenericOp consumer,
                                          Value result, Value value,
                                          ValueRange loops) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  auto lanes = [&](Type element) -> Type {
    return vectorType ? Type(VectorType::get(vectorType.getShape(), element))
                      : element;
  };
  Block &body = *consumer.getBody();
  IRMapping mapping;
  // Reads an operand of the consumer at `loops` through its map.
  unsigned nDim = loops.size() - 1;
  auto read = [&](OpOperand &operand) -> Value {
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    SmallVector<Value> indices;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      indices.push_back(loops[map.getDimPosition(i)]);
    Type element = getElementTypeOrSelf(operand.get().getType());
    if (vectorType && map.isFunctionOfDim(nDim))
      return vector::LoadOp::create(b, loc, lanes(element), operand.get(),
                                    indices);
    Value scalar = memref::LoadOp::create(b, loc, operand.get(), indices);
    return vectorType ? Value(vector::BroadcastOp::create(
                            b, loc, lanes(element), scalar))
                      : scalar;
  };
  for (OpOperand &operand : consumer->getOpOperands()) {
    BlockArgument arg = consumer.getMatchingBlockArgument(&operand);
    // The result, read as an input or updated in place.
    if (operand.get() == result)
      mapping.map(arg, value);
    else if (!arg.use_empty())
      mapping.map(arg, read(operand));
  }
  for (Operation &op : body.without_terminator()) {
    // Constants stay scalar; their vector users get them broadcast.
    if (op.getNumOperands() == 0) {
      b.clone(op, mapping);
      continue;
    }
    for (Value operand : op.getOperands()) {
      Value mapped = mapping.lookupOrDefault(operand);
      if (vectorType && !isa<VectorType>(mapped.getType()))
        mapping.map(operand, vector::BroadcastOp::create(
                                 b, loc, lanes(mapped.getType()), mapped)
                                 .getResult());
    }
    Operation *copy = b.clone(op, mapping);
    for (Value result : copy->getResults())
      result.setType(lanes(result.getType()));
  }
  Value yielded = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  if (vectorType && !isa<VectorType>(yielded.getType()))
    yielded =
        vector::BroadcastOp::create(b, loc, lanes(yielded.getType()), yielded);
  return yielded;
}

LogicalResult mlir::qimeng::hoistDefinitionBefore(Value value,
                                                  Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != point->getBlock() ||
      def->isBeforeInBlock(point))
    return success();
  if (def->getNumRegions() != 0 ||
      !(isPure(def) || isa<memref::AllocOp, memref::AllocaOp>(def)))
    return failure();
  for (Value operand : def->getOperands())
    if (failed(hoistDefinitionBefore(operand, point)))
      return failure();
  def->moveBefore(point);
  return success();
}
