//===- OnlineSums.h - A row's maximum and sum of exponentials at once -*- C++
//-*-===//
//
// Softmax and log-softmax need, per row, the maximum m and the sum of
// exp(x - m). Computed as two reductions, the row is read twice before the
// normalisation reads it a third time. The online form reads it once: one
// reduction with two outputs (m, s) whose step takes an element x and keeps
// s the sum of exponentials relative to the running maximum,
//
//   m' = max(m, x)
//   s' = x > m ? s * exp(m - m') + (x - m') * 0 + 1 : s + exp(x - m')
//
// (one exponential per element; (x - m') * 0 + 1 is exp(x - x): 1, or NaN
// for an infinite x, as in the two-pass sum; m' of -inf is taken as 0 inside
// the exponentials, so rows that start with -inf (masked entries) stay
// exact. A row of -inf alone sums to 0 where the two-pass sum is NaN, and
// maxnumf's row of NaN alone has the maximum -inf; softmax and log-softmax
// of such rows are NaN either way).
// Two partial results combine as
//
//   m = max(m1, m2),  s = s1 * exp(m1 - m) + s2 * exp(m2 - m).
//
// qimeng-online-softmax builds such reductions (buildOnlineSumStep); the
// lane-shared realization (distributeOnlineSum) folds a strided slice of the
// row per lane with the op's own body and combines lanes, warps and the
// output's start value with the rule above.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_ONLINESUMS_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_ONLINESUMS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::qimeng {

/// Which maximum an online sum takes: arith.maxnumf (a NaN element is
/// skipped by the maximum, and still makes the sum NaN) or arith.maximumf
/// (a NaN element makes both NaN).
enum class OnlineMax { MaxNumF, MaximumF };

/// Emits at `b` one step of an online sum: the running maximum `m` and sum
/// `s` after element `x` (x and m of one float type; s of that type or a
/// wider one, in which the exponentials are then computed). Returns
/// {m', s'}.
std::pair<Value, Value> buildOnlineSumStep(OpBuilder &b, Location loc, Value x,
                                           Value m, Value s, OnlineMax kind);

/// Emits at `b` the combination of two partial online sums (m1, s1) and
/// (m2, s2). Returns {m, s}.
std::pair<Value, Value> buildOnlineSumCombine(OpBuilder &b, Location loc,
                                              Value m1, Value s1, Value m2,
                                              Value s2, OnlineMax kind);

/// The maximum `op` takes when it is an online sum: two float outputs (the
/// sum as wide as the maximum or wider), one reduction loop, and a body that
/// computes an element x from the inputs alone (an input, or elementwise
/// producers fused in: a scale, a mask) then takes the step buildOnlineSumStep
/// emits for x and the outputs; std::nullopt otherwise.
std::optional<OnlineMax> matchOnlineSum(linalg::LinalgOp op);

/// Rewrites the online sum `op` in `launch` (after tiling to warps: its
/// parallel loops have one iteration) so that `lanes` threads share it: each
/// folds a strided slice of the reduction loop from (-inf, 0) with the op's
/// body, lanes combine by a butterfly of shuffles, warps in shared memory
/// (`lanes` above 32), and the first thread combines the total with the
/// outputs' values and stores both. Emits an error and fails when the op
/// does not qualify.
LogicalResult distributeOnlineSum(gpu::LaunchOp launch, linalg::LinalgOp op,
                                  int64_t lanes);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_ONLINESUMS_H
