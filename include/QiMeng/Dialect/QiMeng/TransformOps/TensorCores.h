//===- TensorCores.h - Contractions to tensor-core instructions -*- C++ -*-===//
//
// After a target is tiled to warps, vectorized and unrolled to the native
// instruction shape, its vector.contract ops and the reads that feed them
// become nvgpu.mma.sync and nvgpu.ldmatrix (upstream VectorToGPU).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_TENSORCORES_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_TENSORCORES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::linalg {
class FillOp;
class GenericOp;
} // namespace mlir::linalg

namespace mlir::qimeng {

/// Attribute the micro-coder puts on the gpu.launch of each target (the
/// target's tag), so steps between script sequences can find it.
inline constexpr llvm::StringLiteral kLaunchTargetAttr = "qimeng.target";

/// Rewrites the warp-level contractions in `launch` as mma.sync. Fails when
/// any vector.contract is left (the error names the first), and on f32
/// operands unless `tf32` asks for them to be computed as tf32.
LogicalResult convertToMmaSync(gpu::LaunchOp launch, bool tf32 = false);

/// Fuses `fill`, a constant fill of the output of the warp-level
/// contraction in `launch`, into it: the kernel's reads of the output (its
/// accumulators, hoisted before the reduction loop) become the constant and
/// the fill is erased, so the accumulators start in registers. Fails with
/// an error, changing nothing, unless the fill comes before the launch in
/// its block, nothing between uses the buffer, and the launch reads it only
/// there, outside loops, before any write.
LogicalResult startAccumulatorsFromFill(gpu::LaunchOp launch,
                                        linalg::FillOp fill);

/// Runs `consumer`, an elementwise op on the result of the mma.sync kernel
/// `launch` (after convertToMmaSync; whyNotEpilogueConsumer), where the
/// kernel stores its accumulators: each store computes the consumer's body
/// on the registers and writes the consumer's output; the result itself is
/// still stored unless it is a temporary only the two use. The consumer is
/// erased. Fails with an error, changing nothing, unless the consumer comes
/// after the launch in its block, nothing between uses its buffers, and the
/// kernel stores exactly one of its operands, through subviews.
LogicalResult runConsumerInEpilogue(gpu::LaunchOp launch,
                                    linalg::GenericOp consumer);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_TENSORCORES_H
