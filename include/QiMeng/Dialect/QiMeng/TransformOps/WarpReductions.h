//===- WarpReductions.h - Reductions shared by a warp's lanes --*- C++ -*-===//
//
// A reduction tiled to warps (one output element per warp) is computed by the
// warp's 32 lanes together: each lane folds a strided slice of the reduction
// loop (coalesced reads), then the lanes combine their partial results with
// shuffles (gpu.subgroup_reduce). An elementwise op tiled to warps (a row per
// warp) is shared the same way, the lanes striding over the row.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WARPREDUCTIONS_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WARPREDUCTIONS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::qimeng {

/// Threads per warp on NVIDIA GPUs.
inline constexpr int64_t kWarpSize = 32;

/// The lane-combining operation of `op`'s reduction, when `op` has one
/// output, one reduction loop and a body that folds its inputs into the
/// output with a single associative combiner (add, mul, min, max) on 16-,
/// 32- or 64-bit scalars; std::nullopt otherwise.
std::optional<gpu::AllReduceOperation>
getWarpReductionKind(linalg::LinalgOp op);

/// Whether `op` is an arg-reduction the lanes of a warp can share: one
/// input, two outputs (the best value and its index), a body that keeps the
/// element when it compares strictly better (ogt, olt, sgt, slt, ugt, ult)
/// than the best so far, and its index with it (argmax, argmin).
bool isWarpArgReduction(linalg::LinalgOp op);

/// Whether the lanes of a warp (or block) can share the reduction `op`: a
/// single combiner (getWarpReductionKind), an arg-reduction
/// (isWarpArgReduction) or an online sum of exponentials (OnlineSums.h).
bool isLaneReducible(linalg::LinalgOp op);

/// Rewrites the linalg op tagged `tag` in `launch` (after tiling to warps:
/// its parallel loops have one iteration) as a lane-strided loop, a
/// subgroup reduction lowered to shuffles, and a store by lane 0. Emits an
/// error and fails when the op is missing or does not qualify.
LogicalResult distributeWarpReduction(gpu::LaunchOp launch, StringRef tag,
                                      int64_t lanes = kWarpSize);

/// Rewrites the elementwise linalg op tagged `tag` in `launch` (after tiling
/// to warps: every loop but the innermost has one iteration) so the warp's
/// lanes share it: lane l computes the innermost loop's iterations l, l +
/// 32, ... (coalesced), or, with no innermost loop left, lane 0 computes the
/// one element. Emits an error and fails when the op does not qualify.
LogicalResult distributeWarpElementwise(gpu::LaunchOp launch, StringRef tag,
                                        int64_t lanes = kWarpSize);

/// distributeWarpReduction for a reduction (an arg-reduction: a butterfly
/// over (value, index) pairs; an online sum: distributeOnlineSum),
/// distributeWarpElementwise for an op without
/// reduction loops.
///
/// `lanes` threads share each tile: 32 (a warp, the op tiled to warps), or
/// up to 1024 (every thread of a block whose launch has `lanes` threads
/// along x; the op is the block's one tile). Block-wide, the warps' partial
/// results meet in shared memory (a workgroup attribution of the launch)
/// and a barrier follows the op. Each thread's strided loop is unrolled
/// (several loads in flight).
LogicalResult distributeOverLanes(gpu::LaunchOp launch, StringRef tag,
                                  int64_t lanes = kWarpSize);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WARPREDUCTIONS_H
