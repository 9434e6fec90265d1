//===- Epilogues.h - Elementwise consumers run in a matmul kernel -*- C++
//-*-===//
//
// A tensor-core matmul kernel (wgmma or mma.sync) can run the elementwise op
// that consumes its result (the rounding to 16 bits, a bias, an activation)
// where it stores its accumulators: the consumer's body is applied to the
// registers and its output written instead of the matmul's.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_EPILOGUES_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_EPILOGUES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir::qimeng {

/// Why the elementwise `consumer` of a matmul's result cannot run in the
/// matmul kernel's epilogue, or "" when it can: a linalg.generic over the
/// matmul's parallel loops ((batch,) m, n) that reads the result with the
/// identity map, writes one output with the identity map (not the result
/// itself unless `inPlace`: the mma.sync epilogue reads each element from
/// registers before it writes it, the wgmma one does not allow it), reads
/// its other operands through projected permutations, and computes with
/// arith and math ops alone. On tensors (`result` is the matmul's result) or
/// buffers (`result` is the matmul's output buffer).
std::string whyNotEpilogueConsumer(linalg::GenericOp consumer, Value result,
                                   bool inPlace = false);

/// The value of `consumer` (qualified by whyNotEpilogueConsumer) at the
/// loop indices `loops` ((batch,) row, col of its output) when the matmul's
/// result there is `value`: a scalar, or a vector of consecutive columns
/// (operands that vary along the columns are then read as vectors, the
/// others broadcast). Builds at `b`'s insertion point.
Value applyEpilogueConsumer(OpBuilder &b, Location loc,
                            linalg::GenericOp consumer, Value result,
                            Value value, ValueRange loops);

/// Moves what defines `value` before `point` when it comes after it in
/// `point`'s block: allocations and side-effect-free ops, with what their
/// operands need first (the buffer a consumer writes is allocated where
/// its tensor.empty was, after the matmul whose epilogue runs it). Fails
/// on anything else, leaving what it moved so far (allocations and pure
/// ops, harmless) where it is. Upstream's moveValueDefinitions refuses any
/// op with memory effects, allocations included.
LogicalResult hoistDefinitionBefore(Value value, Operation *point);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_EPILOGUES_H
