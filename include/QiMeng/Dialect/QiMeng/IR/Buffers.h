//===- Buffers.h - Sizes of buffers and of their tiles ----------*- C++ -*-===//
//
// What the planner's resource checks, the built-in micro-coder and the
// verifier all need to agree on: how many bytes an element takes, which box
// of an operand one block works on, and how threads map to a block tile.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_IR_BUFFERS_H
#define QIMENG_DIALECT_QIMENG_IR_BUFFERS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::qimeng {

/// The byte size of one element of `element` in a dense buffer (i1: 1,
/// index: 8).
int64_t getElementBytes(Type element);

/// The buffer `memref` is a view of: followed through view-like ops
/// (subview, expand/collapse_shape, ...) to a block argument or the result
/// of an op that is not a view (an allocation, a global, a call).
Value getViewRoot(Value memref);

/// The static shape of the tile of operand `index` of `op` that one block
/// works on in one reduction step: each loop's range, replaced by its block
/// tile and then by its reduction tile where those are > 0. Failure when the
/// operand's indexing map is not a projected permutation.
FailureOr<SmallVector<int64_t>>
getOperandTileShape(linalg::LinalgOp op, int64_t index,
                    ArrayRef<int64_t> blockTile,
                    ArrayRef<int64_t> reductionTile);

/// The threads (or warps) the built-in micro-coder maps to each loop with
/// an inner (thread or warp) tile: block tile / inner tile, in loop order; a
/// loop with a block tile and no inner tile has no threads (each thread runs
/// all of the block's iterations). Failure when the inner tile does not
/// divide the block tile of its loop.
FailureOr<SmallVector<int64_t>> getThreadsPerLoop(ArrayRef<int64_t> blockTile,
                                                  ArrayRef<int64_t> innerTile);

/// Whether `producer` computes a value or buffer that `consumer` reads
/// directly: an SSA result on tensors, an output buffer on memrefs.
bool feeds(Operation *producer, Operation *consumer);

/// Whether `producer` computes a value or buffer that `consumer` reads
/// (an SSA result on tensors, an output buffer on memrefs), directly or
/// through ops of their block in between (a row-wise kernel's fill feeds
/// the reduction that feeds the final elementwise op): what fusing one as
/// the other's producer needs.
bool feedsTransitively(Operation *producer, Operation *consumer);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_IR_BUFFERS_H
