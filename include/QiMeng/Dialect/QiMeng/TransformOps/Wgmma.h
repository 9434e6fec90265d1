//===- Wgmma.h - Matmuls on Hopper's warpgroup tensor cores -----*- C++ -*-===//
//
// A linalg matmul on buffers (bf16 or f16 operands, f32 accumulation) becomes
// one warp-specialized kernel for sm_90a: TMA copies A and B tiles into a
// ring of 128-byte-swizzled shared-memory stages, mbarriers hand each stage
// from the producer warpgroup to the consumer warpgroups, which multiply
// them with wgmma; the f32 tile goes through shared memory to an epilogue
// that adds the accumulator's initial value (a fused fill's constant or the
// output's old contents) and converts to the output's type. No upstream
// transform does this; the ops are upstream's nvgpu and nvvm ops.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WGMMA_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WGMMA_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir::qimeng {

/// The shape of a wgmma kernel.
struct WgmmaOptions {
  /// Block tile (M, N, K). M is 64 or 128, N a multiple of 64 up to 256,
  /// K 64 (one 128-byte swizzle row of 16-bit elements).
  int64_t tileM = 128, tileN = 256, tileK = 64;
  /// Rows of the block tile each consumer warpgroup computes (64 or the
  /// whole tile): tileM / warpgroupRows consumer warpgroups.
  int64_t warpgroupRows = 64;
  /// Shared-memory stages of the TMA ring.
  int64_t stages = 4;
  /// Grouped block order: this many tile rows are walked down one tile
  /// column before the next column (tiles that share B stay in L2).
  int64_t groupRows = 16;
};

/// Dynamic shared memory a block may take on sm_90 (227 KB), less the 1 KB
/// of static shared memory (mbarriers, alignment) a wgmma kernel also has.
inline constexpr int64_t kMaxWgmmaSharedBytes = 227 * 1024 - 1024;
/// Registers of the producer and of each consumer thread with two consumer
/// warpgroups (setmaxnreg; 384 threads: 2 x 128 x 232 + 128 x 40 = 64 K).
inline constexpr int64_t kWgmmaProducerRegisters = 40;
inline constexpr int64_t kWgmmaConsumerRegisters = 232;

/// What a wgmma kernel of `options` takes from the GPU.
struct WgmmaResources {
  int64_t consumers;  ///< consumer warpgroups (tileM / warpgroupRows)
  int64_t threads;    ///< the consumers' and the producer's
  int64_t sharedBytes; ///< the stages, or the f32 tile the epilogue reuses them for
  int64_t accumulatorRegisters; ///< f32 accumulators per consumer thread
};
inline WgmmaResources getWgmmaResources(const WgmmaOptions &o) {
  WgmmaResources r;
  r.consumers = o.warpgroupRows > 0 ? o.tileM / o.warpgroupRows : 0;
  r.threads = (r.consumers + 1) * 128;
  int64_t pipeline = o.stages * (o.tileM + o.tileN) * o.tileK * 2;
  r.sharedBytes = std::max(pipeline, o.tileM * o.tileN * 4);
  r.accumulatorRegisters = o.warpgroupRows * o.tileN / 128;
  return r;
}

/// Name of the zero-sized shared global the kernels' dynamic shared memory
/// is reached through; `--lower-to-nvvm` makes it external in the kernel
/// modules (one 1024-aligned `.extern .shared` array).
inline constexpr llvm::StringLiteral kDynamicSharedGlobal =
    "__qimeng_dynamic_shared";

/// Why `op` cannot take the wgmma kernel, or "" when it can: a matmul
/// (m, k) x (k, n) -> (m, n) on buffers with no batch loop, bf16 or f16
/// operands of one type, an f32, bf16 or f16 result, contiguous rows, and
/// rows of A and B that TMA can read (a multiple of 16 bytes when static).
std::string whyNotWgmma(linalg::LinalgOp op);

/// Whether `options` describe a kernel this rewrite builds; else why not.
std::string whyNotWgmmaOptions(const WgmmaOptions &options);

/// Replaces `op` (and `fill`, the fill of its output, and `consumer`, an
/// elementwise op on its result, when given) by the descriptors on the host
/// and one gpu.launch, tagged with `tag` (kLaunchTargetAttr). Emits an error
/// on `op` and fails when it does not qualify (whyNotWgmma,
/// whyNotEpilogueConsumer in Epilogues.h) or the options are not valid.
FailureOr<gpu::LaunchOp>
rewriteMatmulAsWgmma(RewriterBase &rewriter, linalg::LinalgOp op,
                     linalg::FillOp fill, linalg::GenericOp consumer,
                     const WgmmaOptions &options, StringRef tag);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_WGMMA_H
