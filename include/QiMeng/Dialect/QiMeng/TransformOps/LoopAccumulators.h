//===- LoopAccumulators.h - Serial accumulators in registers ---*- C++ -*-===//
//
// A thread that reduces serially (an output element per thread, its
// reduction loop lowered by convert_to_loops) loads and stores its output
// element in every iteration: the accumulator lives in global memory. LLVM
// cannot keep it in a register, since it cannot prove that the loop's loads
// of the input do not alias the output. This step moves such accumulators
// into loop-carried values.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_LOOPACCUMULATORS_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_LOOPACCUMULATORS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// In every `scf.for` nested in `root` (innermost first), replaces a
/// `memref.store` (or an unmasked, in-bounds `vector.transfer_write` to a
/// memref) of the loop body to a location that does not change with the
/// iteration (memref and indices defined outside the loop) by a
/// loop-carried value: one read before the loop, one store after it, the
/// body's reads of that location reading the carried value (or the value
/// stored before them in the same iteration).
///
/// A location qualifies when nothing else in the loop touches its buffer:
/// every access to a memref viewing the same allocation or argument is a
/// read of the same memref and indices (`memref.load`, or
/// `vector.transfer_read` of the same vector type, permutation and bounds,
/// unmasked) or that one store, directly in the loop body; and every other
/// op of the loop has no memory effect or only effects on values (an
/// unknown call keeps the loop as it is). Barriers do not: the store and its
/// reads run in every iteration for every thread, so a location two threads
/// share would be a race in the loop as written. Distinct allocations and
/// arguments are taken not to overlap, as QiMeng's host code allocates
/// them.
///
/// Returns the number of accumulators moved.
unsigned hoistLoopAccumulators(RewriterBase &rewriter, Operation *root);

/// Reorders the loops of `op` (a linalg op on buffers) so that its parallel
/// loops come first and its reduction loops last, each kind in its order
/// (a named op is generalized first): lowered to loops, each output element
/// is then reduced by an innermost loop whose accumulator
/// hoistLoopAccumulators can keep in a register. The order of each output
/// element's reduction does not change. Returns the op in place of `op`
/// (`op` itself when it already is in that order).
FailureOr<Operation *> moveReductionLoopsInnermost(RewriterBase &rewriter,
                                                   Operation *op);

/// The most output elements (box elements times outputs) a thread keeps
/// in registers through lowerRegisterBlocks.
constexpr int64_t kMaxRegisterBlock = 64;

/// Lowers every linalg op on buffers nested in `root` whose loops are
/// static, with a reduction loop and a box of 2 to kMaxRegisterBlock output
/// elements along its parallel loops, to a nest of `scf.for` over its
/// reduction loops (in order) that carries those outputs as values: one
/// load of each before the nest, the body computed for every box element in
/// each iteration (unrolled), one store of each after it. Inputs several
/// elements read at the same place are read once an iteration (the loads
/// are identical and nothing in the nest writes memory). Each element is
/// reduced in its original order. Ops whose inputs view an output's buffer,
/// whose outputs are read through maps of reduction loops, or whose body
/// writes memory are left as they are. Returns the number of ops lowered.
unsigned lowerRegisterBlocks(RewriterBase &rewriter, Operation *root);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_LOOPACCUMULATORS_H
