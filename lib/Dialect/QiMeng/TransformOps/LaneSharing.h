//===- LaneSharing.h - Ops shared by the lanes of a warp or block -*- C++
//-*-===//
//
// The pieces the lane-shared realizations (WarpReductions.cpp, OnlineSums.cpp)
// build from: who shares a tile, a lane-strided loop, butterflies of
// shuffles, and the meeting of a block's warps in shared memory. Internal to
// the transform-ops library.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_DIALECT_QIMENG_TRANSFORMOPS_LANESHARING_H
#define QIMENG_LIB_DIALECT_QIMENG_TRANSFORMOPS_LANESHARING_H

#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::qimeng::lanes {

/// Whether every shaped operand of `op` is indexed by a projected
/// permutation of its loops (constant 0 results allowed): what spreading
/// its loops over the lanes of a warp needs.
bool isIndexedByProjections(linalg::LinalgOp op);

/// Who shares one tile of an op: the 32 lanes of a warp, or every thread of
/// the block (`lanes` of them, along x). `id` is this thread's number among
/// them; a thread strides by `lanes` over the shared loop.
struct Sharing {
  int64_t lanes;
  Value zero, id;
  bool isBlock() const { return lanes > qimeng::kWarpSize; }
};

/// The sharing of `launch`'s ops by `lanes` threads, at `b`; an error on
/// `op` when a block-wide sharing does not match the launch's threads.
FailureOr<Sharing> buildSharing(OpBuilder &b, Location loc,
                                gpu::LaunchOp launch, linalg::LinalgOp op,
                                int64_t lanes);

/// Whether this thread is the one that stores a shared tile's result.
Value isFirstThread(OpBuilder &b, Location loc, const Sharing &s);

/// One iteration of a lane-strided loop at `index`, after the values it
/// carries, `acc`; returns them after it. `valid` is null, or an i1 that is
/// false for an iteration past the loop's end: `index` is then the loop's
/// last iteration (loads stay in bounds), results are discarded, and the
/// iteration must store nothing.
using LaneIteration = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value index, Value valid, ValueRange acc)>;

/// The loop `for i = id to extent step count` with `inits` carried through
/// `step`, in trips of several iterations whose loads are in flight at once:
/// a static loop of up to 16 iterations per thread as one trip (masked
/// where the threads' counts differ), a longer one in unmasked trips of 4
/// and one masked trip for the rest. Returns the carried values.
SmallVector<Value> buildStridedLoop(OpBuilder &b, Location loc,
                                    const Sharing &s, Value extent,
                                    ValueRange inits, LaneIteration step);

/// Block-wide sharing: every warp's total (in all its lanes) meets the
/// others' in shared memory; returns them combined, in warp order, by
/// `combine`. `totals` are the values of one warp (a reduction's partial
/// result; an arg-reduction's value and index).
SmallVector<Value> combineWarps(
    OpBuilder &b, Location loc, gpu::LaunchOp launch, const Sharing &s,
    ValueRange totals,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange, ValueRange)>
        combine);

/// The reduction loop of `op`, whose parallel loops must have one
/// iteration per warp (an error on `op` otherwise).
FailureOr<unsigned> getWarpReductionLoop(linalg::LinalgOp op);

/// Clones the body of `op` (but its terminator) at `b` with `mapping`, each
/// linalg.index of loop d replaced by `indexOf(d)` (the op's loops becoming
/// a lane's loop, or one iteration).
void cloneBody(OpBuilder &b, linalg::LinalgOp op, IRMapping &mapping,
               function_ref<Value(unsigned)> indexOf);

/// Indices of `operand` of `op` at `index` of loop `loop`, every other
/// loop (and a constant result: a kept unit dimension) at `zero`.
SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                              unsigned loop, Value index, Value zero);

/// The value of `value` (an integer or float of 8 to 64 bits) in the lane
/// whose id is this lane's xor `offset`: 32-bit shuffles, a narrower value
/// widened for it, a 64-bit one in two halves.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset);

/// The elements each lane takes at once along loop `loop` of `op` (after
/// tiling: its other loops have one iteration): 16 bytes of the widest
/// operand element (fewer of narrower ones) when every buffer operand that
/// loop indexes is contiguous along it in its innermost dimension, with
/// static outer strides and a static loop length that the width divides
/// (rows start 16-byte aligned in 256-byte aligned buffers); 1 otherwise.
int64_t getLaneVectorWidth(linalg::LinalgOp op, unsigned loop);

/// The values of the block arguments of `op` (its inputs, and with
/// `readInits` the inits its body reads; null for the others) for each of
/// the `width` elements `first`, `first` + 1, ... of loop `loop` (every
/// other loop at 0): one vector load per operand the loop indexes when
/// `width` > 1 (aligned to its bytes), scalar loads otherwise; an operand
/// the loop does not index is loaded once.
SmallVector<SmallVector<Value>>
loadLaneOperands(OpBuilder &b, Location loc, linalg::LinalgOp op, unsigned loop,
                 Value first, int64_t width, Value zero, bool readInits);

/// The first element of group `group` of `width` elements.
Value getGroupStart(OpBuilder &b, Location loc, Value group, int64_t width);

/// Element `first` + `j`.
Value getElementAt(OpBuilder &b, Location loc, Value first, int64_t j);

/// Clones the body of `op` for element `index` of loop `loop` (every other
/// loop at 0) with its block arguments bound to `arguments`; returns the
/// values it yields.
SmallVector<Value> cloneBodyAt(OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> arguments, unsigned loop,
                               Value index, Value zero,
                               ArrayRef<Value> outputs = {});

/// Stores `results` (per element, per init) of `width` elements from
/// `first` along loop `loop` into `op`'s inits: one vector store per init
/// when `width` > 1.
void storeLaneResults(OpBuilder &b, Location loc, linalg::LinalgOp op,
                      unsigned loop, Value first, int64_t width, Value zero,
                      ArrayRef<SmallVector<Value>> results);

/// A reduction the lanes share: its reduction loop, who shares it and the
/// loop's length.
struct LaneReduction {
  unsigned loop;
  Sharing sharing;
  Value extent;
};

/// The sharing of the reduction `op` (after tiling to warps) by `lanes`
/// threads of `launch`, at `b` (before `op`); an error on `op` when an
/// operand is not indexed by a projection of the loops or a parallel loop
/// has more than one iteration.
FailureOr<LaneReduction> buildLaneReduction(OpBuilder &b, gpu::LaunchOp launch,
                                            linalg::LinalgOp op, int64_t lanes);

/// Each thread's fold of its strided slice of `reduction`'s loop with the
/// body of `op`, from `inits` (the values standing for the outputs), in
/// groups of getLaneVectorWidth elements; returns the folded values.
SmallVector<Value> foldLaneSlice(OpBuilder &b, Location loc,
                                 linalg::LinalgOp op,
                                 const LaneReduction &reduction,
                                 ValueRange inits);

} // namespace mlir::qimeng::lanes

#endif // QIMENG_LIB_DIALECT_QIMENG_TRANSFORMOPS_LANESHARING_H
