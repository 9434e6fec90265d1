//===- OpFamily.h - The operation families planners tell apart --*- C++ -*-===//

#ifndef QIMENG_PLANNER_OPFAMILY_H
#define QIMENG_PLANNER_OPFAMILY_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::qimeng {

enum class Family {
  Matmul,      ///< 2-D contraction (m, n, k), any transposition
  Contraction, ///< other contractions: batched matmul, matvec, ...
  Convolution,
  Pooling,
  Reduction,
  Elementwise ///< no reduction loop: elementwise, broadcast, fill
};

/// "matmul", "contraction", "conv", "pool", "reduction", "elementwise".
StringRef familyName(Family family);

Family classify(linalg::LinalgOp op);

/// The batch loops of a (batched) matmul: leading parallel loops that lead
/// the indices of the left operand and the output in loop order, before a
/// matmul's two (the last loop its only reduction); the right operand has
/// them too, some of them in order (one matrix for the M tiles of a split
/// dynamic M) or none (one matrix for every batch). 0 for a plain matmul,
/// -1 for anything else.
int64_t getNumBatchLoops(linalg::LinalgOp op);

/// The shortest K the tiled matmul plans take (one K step of the padded
/// plans); a shorter one is planned as a memory-bound op, and qimeng-prepare
/// does not pad it.
constexpr int64_t kMinTiledMatmulK = 32;

/// How many parts a split reduction (or a split K) takes: the power of two
/// nearest above `wanted` (at least 1) that divides `extent` into parts of
/// at least `minPart`, halved until it does; 1 when none does.
int64_t choosePartCount(int64_t wanted, int64_t extent, int64_t minPart);

/// The shortest odd extent chooseDividingPartCount splits: a shorter serial
/// sum costs less than the extra kernel that combines the parts (a judgment:
/// measured only at 1001, where 91 parts ran 3.8x as fast on an H100,
/// bench/corpus/results/2026-12-06-h100-odd-splits).
constexpr int64_t kMinOddSplitExtent = 256;

/// choosePartCount, or, where no power of two divides `extent` (an odd
/// length of kMinOddSplitExtent or more: 1001 = 7 x 11 x 13), its largest
/// divisor at most the power of two nearest above `wanted` that leaves parts
/// of at least `minPart`; 1 when none does (a prime).
int64_t chooseDividingPartCount(int64_t wanted, int64_t extent,
                                int64_t minPart);

/// Whether `op`'s indexing maps are a plain row-major matmul's: (m, k),
/// (k, n) -> (m, n), no batch and no transposed operand.
bool hasRowMajorMatmulMaps(linalg::LinalgOp op);

/// The wgmma plan's block rows and K step (one 128-byte swizzle row of
/// 16-bit elements).
constexpr int64_t kWgmmaTileM = 128;
constexpr int64_t kWgmmaTileK = 64;

/// Whether `op` is a matmul whose K is split into parts (qimeng-prepare's
/// split-K for wgmma): loops (s, m, n, k), A (m, s, k) (A's (m, K) matrix
/// with K = S x Kc), B (s, k, n) or (n, s, k), C (s, m, n) (each part's
/// partial product).
bool isSplitKMatmul(linalg::LinalgOp op);

/// The batch loops the wgmma kernel takes of `op`: 1 for a batched matmul
/// with one batch loop leading all three operands, or for a split K's parts
/// (isSplitKMatmul), else 0.
int64_t getWgmmaBatchLoops(linalg::LinalgOp op);

/// The N tile of the wgmma plan for an (M x N) product of `batches` batches
/// (either may be dynamic) on `numSMs` SMs: 64 for an N of 64 or less, 256
/// where (128 x 256) tiles still give every SM a block, else 128.
int64_t getWgmmaTileN(int64_t m, int64_t n, int64_t batches, int64_t numSMs);

/// How many parts qimeng-prepare splits the K of a wgmma matmul into (1:
/// none): a plain matmul (no batch, a static M, K a multiple of the 64-deep
/// K step) whose output tiles leave SMs idle, where a rough cost model
/// (K steps against the partial sums' memory traffic and a launch) says
/// parts save a fifth of the time or more. Parts are a power of two, each
/// at least four K steps, at most 16, and at most one wave of blocks on
/// `numSMs` SMs.
int64_t getWgmmaKSplits(linalg::LinalgOp op, int64_t numSMs);

/// Whether every operand of `op` that its innermost loop indexes holds that
/// loop as its last (contiguous) dimension: what a warp whose lanes stride
/// along the innermost loop needs for coalesced loads.
bool isContiguousAlongInnermostLoop(linalg::LinalgOp op);

/// A discardable attribute on a matmul with a dynamic M: the most rows M
/// has there (an i64; a version of qimeng-prepare's on M, see
/// getWgmmaRowVersions), which the wgmma plan sizes its N tile for
/// (getWgmmaTileN) instead of counting a dynamic M as enough rows.
constexpr llvm::StringLiteral kMaxRowsAttrName = "qimeng.max_rows";

/// One version of a matmul with a dynamic M: for an M of at most `maxRows`
/// (and more than the previous version's), its K split into `parts` (1:
/// whole), on tiles `tileN` wide.
struct WgmmaRowVersion {
  int64_t maxRows;
  int64_t parts;
  int64_t tileN;
};

/// The versions of a wgmma matmul (no batch) with a dynamic M, by ascending
/// M, where M's row tiles, each judged at its largest M (the most partial
/// sums to add), would get a plan other than a dynamic M's: K split into
/// parts (getWgmmaKSplits), or N tiles 128 wide where a dynamic M counts as
/// enough rows for 256 (getWgmmaTileN). Adjacent row tiles of the same plan
/// form one version. Empty for a static M, or where every M plans as a
/// dynamic one. Past the last version, M takes a dynamic M's plan.
SmallVector<WgmmaRowVersion> getWgmmaRowVersions(linalg::LinalgOp op,
                                                 int64_t numSMs);

/// Whether the wgmma kernel can read `operand` of a batched matmul as one
/// matrix of all batches' rows: a buffer in identity layout, not a slice of
/// a larger tensor.
bool isWholeBatchedOperand(Value operand);

/// Whether the matmul `op` (batched as getWgmmaBatchLoops says) reads its
/// right-hand operand (b, n, k) (split: (n, s, k)).
bool readsNKRhs(linalg::LinalgOp op);

/// Whether the planner gives `op` the Hopper wgmma kernel on a GPU that has
/// it (and `qimeng-prepare` leaves it unpadded, and B uncopied, for that): a
/// matmul reading A (m, k) and B (k, n) or (n, k), or a batched one with one
/// batch loop b leading all three ((b, m, k) x (b, k, n) or (b, n, k) ->
/// (b, m, n); a (b, k, n) B with K a multiple of 64), with bf16 or f16
/// operands of one type, an f32, bf16 or f16 result, and a static K that
/// is a multiple of 8 and a static N, a multiple of 8 for a (k, n) B (rows
/// of A and B a multiple of 16 bytes, as TMA reads them), K at least 64 (one
/// K step of the plan); M and the batch may be dynamic. With `rhsSwapped`:
/// whether it would once B's last two dimensions are swapped (read (n, k)
/// instead of (k, n) or back).
bool takesWgmma(linalg::LinalgOp op, bool rhsSwapped = false);

/// Whether `op` takes the wgmma kernel once N and K are padded to
/// multiples of 8: as takesWgmma, with any static N and K, no batch loop
/// and B (k, n) only (`qimeng-prepare` pads row-major matmuls; B stored (n, k)
/// with an N or K off the multiple is copied transposed first).
bool takesWgmmaOncePadded(linalg::LinalgOp op);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_OPFAMILY_H
