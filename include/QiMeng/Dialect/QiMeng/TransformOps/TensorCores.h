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

namespace mlir::qimeng {

/// Attribute the micro-coder puts on the gpu.launch of each target (the
/// target's tag), so steps between script sequences can find it.
inline constexpr llvm::StringLiteral kLaunchTargetAttr = "qimeng.target";

/// Rewrites the warp-level contractions in `launch` as mma.sync. Fails when
/// any vector.contract is left (the error names the first), and on f32
/// operands unless `tf32` asks for them to be computed as tf32.
LogicalResult convertToMmaSync(gpu::LaunchOp launch, bool tf32 = false);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_TENSORCORES_H
