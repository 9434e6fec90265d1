//===- Buffers.cpp - Sizes of buffers and of their tiles ------------------===//

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::qimeng;

int64_t mlir::qimeng::getElementBytes(Type element) {
  if (element.isIndex())
    return 8;
  return std::max<int64_t>(
      1, llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
}

Value mlir::qimeng::getViewRoot(Value memref) {
  while (auto view =
             dyn_cast_or_null<ViewLikeOpInterface>(memref.getDefiningOp()))
    memref = view.getViewSource();
  return memref;
}

FailureOr<SmallVector<int64_t>>
mlir::qimeng::getOperandTileShape(linalg::LinalgOp op, int64_t index,
                                  ArrayRef<int64_t> blockTile,
                                  ArrayRef<int64_t> reductionTile) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  for (auto [i, extent] : llvm::enumerate(extents)) {
    if (i < blockTile.size() && blockTile[i] > 0)
      extent = blockTile[i];
    if (i < reductionTile.size() && reductionTile[i] > 0)
      extent = reductionTile[i];
  }
  AffineMap map = op.getMatchingIndexingMap(&op->getOpOperand(index));
  if (!map.isProjectedPermutation())
    return failure();
  SmallVector<int64_t> shape;
  for (AffineExpr e : map.getResults())
    shape.push_back(extents[cast<AffineDimExpr>(e).getPosition()]);
  return shape;
}

FailureOr<SmallVector<int64_t>>
mlir::qimeng::getThreadsPerLoop(ArrayRef<int64_t> blockTile,
                                ArrayRef<int64_t> innerTile) {
  SmallVector<int64_t> perLoop;
  for (auto [block, inner] : llvm::zip(blockTile, innerTile)) {
    // Not tiled to threads (or warps): each thread runs all of the block's
    // iterations along the loop.
    if (inner == 0 && block >= 0)
      continue;
    if (block <= 0 || inner <= 0 || block % inner != 0)
      return failure();
    perLoop.push_back(block / inner);
  }
  return perLoop;
}

bool mlir::qimeng::feeds(Operation *producer, Operation *consumer) {
  for (Value operand : consumer->getOperands()) {
    if (operand.getDefiningOp() == producer)
      return true;
    if (!isa<MemRefType>(operand.getType()))
      continue;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(producer))
      for (OpOperand &init : dps.getDpsInitsMutable())
        if (init.get() == operand)
          return true;
  }
  return false;
}

bool mlir::qimeng::feedsTransitively(Operation *producer, Operation *consumer) {
  if (feeds(producer, consumer))
    return true;
  if (producer->getBlock() != consumer->getBlock() ||
      !producer->isBeforeInBlock(consumer))
    return false;
  SmallVector<Operation *> reached = {producer};
  for (Operation *op = producer->getNextNode(); op && op != consumer;
       op = op->getNextNode())
    if (llvm::any_of(reached, [&](Operation *r) { return feeds(r, op); }))
      reached.push_back(op);
  return llvm::any_of(reached,
                      [&](Operation *r) { return feeds(r, consumer); });
}
