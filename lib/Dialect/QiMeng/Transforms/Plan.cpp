//===- Plan.cpp - The built-in planner ------------------------------------===//
//
// Chooses the macro actions of every kernel from its shapes, element types
// and the target profile. The heuristics are documented in docs/planner.md;
// they are deterministic (the same input always gets the same plan).
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Epilogues.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Planner/ConvolutionBox.h"
#include "QiMeng/Planner/OpFamily.h"
#include "QiMeng/Planner/RowGroups.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGPLANPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Threads per block the planner aims for on memory-bound kernels.
constexpr int64_t kThreadsPerBlock = 256;
/// Warps per block of the warp-reduction plan. It takes reduction loops of
/// a warp's length or more (an iteration per lane; shorter rows take a
/// thread each): a thread per row of 32 to 127 read its row alone, a sector
/// per lane per load (an f64 min over rows of 96 ran at 0.41x eager on the
/// H200).
constexpr int64_t kWarpsPerReductionBlock = 8;
/// Block tile (M and N) and K step of the tensor-core matmul plan.
constexpr int64_t kMmaBlockTile = 64;
constexpr int64_t kMmaReductionTile = 32;
constexpr int64_t kMmaReductionTileF64 = 16;
/// Elements padding each row of the tensor-core plans' shared tiles (32
/// bytes of f64, 16 of f32 and f16): without them, the lanes that load one
/// fragment column read rows that start at the same bank. Measured on an H100
/// (2026-12-06, bench/corpus/results/2026-12-06-h100-pad): a 3x256x256 .
/// 3x256x1024 f64 batched matmul 0.0576 -> 0.0284 ms, a 1024^3 f16 one
/// 0.0425 -> 0.0267 ms.
constexpr int64_t kMmaPadF64 = 4, kMmaPadF32 = 4, kMmaPadF16 = 8;
/// Largest static loop the planner tiles (grid sizes are 32-bit).
constexpr int64_t kMaxLoopSize = int64_t(1) << 31;
/// A convolution box's block (getConvolutionBox): blocks of at least this
/// many threads.
constexpr int64_t kMinBoxBlockThreads = 64;

/// Which matmul plan an op takes.
enum class MatmulPath { None, Wgmma, TensorCore, Simt };
/// Rows per consumer warpgroup and TMA stages of the wgmma plan (its block
/// rows and K step are kWgmmaTileM and kWgmmaTileK;
/// ../shared/hopper-tensor-cores.md: 128 x 256 x 64 blocks of two consumer
/// warpgroups and four stages ran at cuBLAS speed on the H200).
constexpr int64_t kWgmmaWarpgroupRows = 64;
constexpr int64_t kWgmmaStages = 4;

/// Whether the maps of a matmul with `batch` batch loops read (m, k) and
/// (k, n) and write (m, n) in the last two indices of each operand.
bool isRowMajorAfterBatch(linalg::LinalgOp op, int64_t batch) {
  unsigned m = batch, n = batch + 1, k = batch + 2;
  auto lastTwo = [](AffineMap map) {
    unsigned r = map.getNumResults();
    return std::make_pair(map.getDimPosition(r - 2), map.getDimPosition(r - 1));
  };
  return lastTwo(op.getMatchingIndexingMap(op.getDpsInputOperand(0))) ==
             std::make_pair(m, k) &&
         lastTwo(op.getMatchingIndexingMap(op.getDpsInputOperand(1))) ==
             std::make_pair(k, n) &&
         lastTwo(op.getMatchingIndexingMap(op.getDpsInitOperand(0))) ==
             std::make_pair(m, n);
}

/// Whether the products of `op`, a contraction, are in its accumulator's
/// type, as tensor cores compute them: a named op, or a generic whose body
/// adds to the accumulator the product of its inputs, each extended or
/// not (not a product taken in the inputs' narrower type and then
/// extended).
bool multipliesInAccumulatorType(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return true;
  return linalg::detail::isContractionBody(
      generic.getRegion().front(), [](Operation *mul, Operation *add) {
        return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add) &&
               mul->getResult(0).getType() == add->getResult(0).getType();
      });
}

/// wgmma on a target that has it: see takesWgmma. Tensor cores: f16 or
/// bf16 operands with f32 accumulation, f32 throughout when `tf32` allows it
/// (computed as tf32), or f64 throughout, in row-major (m, k) x (k, n)
/// order, whole tiles, batched or not (see planTensorCoreMatmul). SIMT: f32
/// accumulation with f32, f16 or bf16 operands, or f64 throughout, batched
/// or not.
MatmulPath getMatmulPath(linalg::LinalgOp op, const TargetProfile &target,
                         bool tf32) {
  // Hopper: warpgroup tensor cores fed by TMA, any M, edges by TMA's zero
  // fill.
  if (target.wgmma && takesWgmma(op))
    return MatmulPath::Wgmma;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t batch = getNumBatchLoops(op);
  // Batch loops may be dynamic (one batch per block); m, n and k not.
  if (batch < 0 || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      llvm::any_of(ArrayRef<int64_t>(bounds).drop_front(batch),
                   ShapedType::isDynamic))
    return MatmulPath::None;
  // A K shorter than one K step of the tiled plans: little to reuse, the
  // output's writes dominate; the parallel plan (a thread per output, K
  // serial) is one kernel without the padding copies. 12 x 127x17 · 17x500
  // took 0.024 ms padded on the H200 (eager 0.012).
  if (bounds.back() < kMinTiledMatmulK)
    return MatmulPath::None;
  auto elementOf = [](OpOperand *operand) {
    return getElementTypeOrSelf(operand->get().getType());
  };
  Type lhs = elementOf(op.getDpsInputOperand(0));
  Type rhs = elementOf(op.getDpsInputOperand(1));
  Type acc = elementOf(op.getDpsInitOperand(0));
  // Row-major m, n, k after any batch loops (the right operand shared or
  // batched).
  bool rowMajor = isRowMajorAfterBatch(op, batch);
  bool wholeTiles = bounds[batch] % kMmaBlockTile == 0 &&
                    bounds[batch + 1] % kMmaBlockTile == 0 &&
                    bounds[batch + 2] % kMmaReductionTile == 0;
  bool mmaTypes =
      (acc.isF32() && lhs == rhs && (lhs.isF16() || lhs.isBF16())) ||
      (tf32 && acc.isF32() && lhs.isF32() && rhs.isF32()) ||
      (acc.isF64() && lhs.isF64() && rhs.isF64());
  if (mmaTypes && rowMajor && wholeTiles && multipliesInAccumulatorType(op))
    return MatmulPath::TensorCore;
  if (acc.isF32() && lhs == rhs && (lhs.isF32() || lhs.isF16() || lhs.isBF16()))
    return MatmulPath::Simt;
  if (acc.isF64() && lhs.isF64() && rhs.isF64())
    return MatmulPath::Simt;
  return MatmulPath::None;
}

/// Tiles of the SIMT matmul plan for loop bounds (batch..., m, n, k):
/// full-size tiles even when they do not divide the problem (the border
/// tiles are partial and computed without vectors); one batch per block.
struct SimtMatmulTiles {
  int64_t bm, bn, bk, tm, tn;
  /// A and B tiles in shared memory.
  bool promote;
  /// Vectors and the pipeline: whole tiles of 4x4 outputs per thread.
  bool fast;
  /// Leading batch loops.
  unsigned batch;
  /// Vector lanes of a thread's row of outputs (128 bits of them).
  int64_t width = 4;

  /// Tile sizes over all loops: the batch loops get `batchSize`, m, n and k
  /// the three given.
  SmallVector<int64_t> sizes(int64_t batchSize, int64_t m, int64_t n,
                             std::optional<int64_t> k) const {
    SmallVector<int64_t> all(batch, batchSize);
    all.push_back(m);
    all.push_back(n);
    if (k)
      all.push_back(*k);
    return all;
  }
  /// Thread tile sizes: m and n the given ones, the innermost batch loop 1
  /// and the outer ones whole (their block tile is one already): threads
  /// map at most three loops (the split K's parts, M tiles and batches).
  SmallVector<int64_t> threadSizes(int64_t m, int64_t n,
                                   std::optional<int64_t> k) const {
    SmallVector<int64_t> all = sizes(1, m, n, k);
    for (unsigned i = 0; i + 1 < batch; ++i)
      all[i] = 0;
    return all;
  }
};

SimtMatmulTiles getSimtMatmulTiles(ArrayRef<int64_t> allBounds,
                                   const TargetProfile &target,
                                   int64_t accumulatorBits = 32) {
  unsigned batch = allBounds.size() - 3;
  ArrayRef<int64_t> bounds = allBounds.drop_front(batch);
  int64_t m = bounds[0], n = bounds[1], k = bounds[2];
  // A dynamic batch counts as many.
  int64_t batches = 1;
  for (int64_t size : allBounds.take_front(batch))
    batches *= ShapedType::isDynamic(size) ? 1024 : size;
  SimtMatmulTiles t;
  t.batch = batch;
  t.bm = std::min<int64_t>(64, llvm::PowerOf2Ceil(m));
  t.bn = std::min<int64_t>(64, llvm::PowerOf2Ceil(n));
  t.bk = std::min<int64_t>(16, llvm::PowerOf2Ceil(k));
  t.tm = std::min<int64_t>(4, t.bm);
  // One 128-bit vector per thread row: 4 x f32, 2 x f64.
  t.width = accumulatorBits == 64 ? 2 : 4;
  t.tn = std::min<int64_t>(t.width, t.bn);
  t.promote = t.bm >= 16 && t.bn >= 16 && t.bk >= 4;
  bool divides = m % t.bm == 0 && n % t.bn == 0 && k % t.bk == 0;
  t.fast = t.promote && divides && t.tm == 4 && t.tn == t.width;
  // Whole 128 x 64 tiles of 8 x 4 per thread (twice the reuse of each
  // shared-memory load) when they still give every SM a block: 2048^3 on
  // the H200 0.479 -> 0.423 ms; 128 x 128 of 8 x 8 0.490, 64 x 128 of
  // 4 x 8 0.675, K step 32 0.467, 3 stages 0.516 (docs/planner.md).
  if (t.fast && m % 128 == 0 &&
      batches * (m / 128) * (n / 64) >= target.numSMs) {
    t.bm = 128;
    t.tm = 8;
  }
  return t;
}

/// Lanes of the 128-bit vectors an elementwise op (static shapes) takes
/// along its innermost loop, or 0: every operand must be contiguous along it
/// or broadcast across it (not indexed by it, or read at constant 0), and
/// the body must not gather.
int64_t getElementwiseVectorWidth(linalg::LinalgOp op) {
  // Gathers (tensor.extract / linalg.index in the body, e.g. padding) stay
  // scalar: the vectorizer cannot turn them into plain vector loads.
  bool isGather = false;
  op->walk([&](Operation *inner) {
    isGather |= isa<tensor::ExtractOp, memref::LoadOp, linalg::IndexOp>(inner);
  });
  if (isGather || op.getNumLoops() == 0)
    return 0;
  unsigned innermost = op.getNumLoops() - 1;
  MLIRContext *ctx = op->getContext();
  // Constant-0 results read a broadcast operand (a keepdim mean or row
  // maximum) at the same element across the vector.
  auto vectorFriendly = [&](AffineMap map) {
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    if (!map.isFunctionOfDim(innermost))
      return true;
    return map.getNumResults() > 0 &&
           map.getResults().back() == getAffineDimExpr(innermost, ctx);
  };
  // i1 buffers hold a byte per element, but LLVM packs vectors of i1 into
  // bits: no vectors with them.
  int64_t widestBits = 0;
  for (Type t : op->getOperandTypes()) {
    Type element = getElementTypeOrSelf(t);
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
      return 0;
    widestBits = std::max<int64_t>(widestBits, element.getIntOrFloatBitWidth());
  }
  if (widestBits < 8 || widestBits > 64)
    return 0;
  if (!isa<linalg::FillOp>(op) &&
      !llvm::all_of(op.getIndexingMapsArray(), vectorFriendly))
    return 0;
  return 128 / widestBits;
}

/// Appends block and thread tile actions for `tag`.
void createTiles(OpBuilder &b, Location loc, StringRef tag,
                 ArrayRef<int64_t> block, ArrayRef<int64_t> thread) {
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(block), TileLevel::block,
                 nullptr);
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(thread), TileLevel::thread,
                 nullptr);
}

/// Tiles of the parallel plan: block and thread sizes over all loops (0 on
/// the reduction loops), and the vector width (1: none).
struct ParallelTiles {
  SmallVector<int64_t> block, thread;
  int64_t width = 1;
};

class Planner {
public:
  /// `tf32`: f32 matmuls may take the tensor cores as tf32 (--allow-tf32).
  Planner(const TargetProfile &target, bool naive, bool tf32)
      : target(target), naive(naive), tf32(tf32) {}

  /// Appends the actions for `op` (tagged `tag`) to the plan body.
  LogicalResult plan(OpBuilder &b, Location loc, linalg::LinalgOp op,
                     StringRef tag);
  /// Appends the actions of `op`, which findFusions fuses into `host`'s
  /// blocks: none for a tensor-core kernel (it folds its fill in), the SIMT
  /// matmul's tiles, or a window's (planWindowInit).
  LogicalResult planFusedInto(OpBuilder &b, Location loc, linalg::LinalgOp op,
                              StringRef tag, linalg::LinalgOp host);
  /// Appends the actions of an op of a row group: its rows per block, a
  /// row per warp (the fusions come after every op's actions).
  LogicalResult planRowGroupMember(OpBuilder &b, Location loc,
                                   linalg::LinalgOp op, StringRef tag,
                                   const RowGroup &group);

  const TargetProfile &getTarget() const { return target; }
  bool allowsTf32() const { return tf32; }

private:
  /// Appends the actions of a fill or elementwise op that will be fused into
  /// a SIMT matmul with tiles `t`.
  LogicalResult planFused(OpBuilder &b, Location loc, StringRef tag,
                          const SimtMatmulTiles &t);
  /// Appends the actions of the op that fills the output of the window
  /// `host` (a convolution's bias, a pool's start value), fused into its
  /// blocks: the host's block and thread tiles along its parallel loops.
  LogicalResult planWindowInit(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               StringRef tag, linalg::LinalgOp host);
  LogicalResult planMatmul(OpBuilder &b, Location loc, StringRef tag,
                           const SimtMatmulTiles &t, int64_t k);

  LogicalResult planTensorCoreMatmul(OpBuilder &b, Location loc, StringRef tag,
                                     int64_t batch, ArrayRef<int64_t> bounds,
                                     Type input);
  LogicalResult planWgmmaMatmul(OpBuilder &b, Location loc,
                                linalg::LinalgOp op, StringRef tag);
  LogicalResult planWarpReduction(OpBuilder &b, Location loc,
                                  linalg::LinalgOp op, StringRef tag,
                                  ArrayRef<int64_t> bounds);
  LogicalResult planParallel(OpBuilder &b, Location loc, linalg::LinalgOp op,
                             StringRef tag, ArrayRef<int64_t> bounds,
                             int64_t vectorWidth);
  /// Appends a transpose through shared memory for `op` and returns true
  /// when it takes that plan (see the definition); appends nothing else.
  bool planSharedTranspose(OpBuilder &b, Location loc, linalg::LinalgOp op,
                           StringRef tag, ArrayRef<int64_t> bounds);
  /// The block and thread tiles (and vector width) planParallel gives `op`.
  FailureOr<ParallelTiles> getParallelTiles(linalg::LinalgOp op,
                                            ArrayRef<int64_t> bounds,
                                            int64_t vectorWidth);

  const TargetProfile &target;
  /// Plain plans only (planParallel without vectors).
  bool naive;
  bool tf32;
};

LogicalResult Planner::plan(OpBuilder &b, Location loc, linalg::LinalgOp op,
                            StringRef tag) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (op.getNumDpsInits() == 0)
    return op->emitOpError() << "has no output operand to plan for";
  for (auto [i, bound] : llvm::enumerate(bounds)) {
    if (bound == 0)
      return op->emitOpError()
             << "has an empty loop " << i << "; nothing to compute";
    if (!ShapedType::isDynamic(bound) && bound > kMaxLoopSize)
      return op->emitOpError()
             << "loop " << i << " has " << bound << " iterations; at most "
             << kMaxLoopSize << " are supported";
  }
  if (op.getNumParallelLoops() == 0)
    return op->emitOpError() << "has no parallel loop to map to GPU threads; "
                                "full reductions are not supported yet";
  if (naive)
    return planParallel(b, loc, op, tag, bounds, /*vectorWidth=*/0);
  Family family = classify(op);
  switch (getMatmulPath(op, target, tf32)) {
  case MatmulPath::Wgmma:
    return planWgmmaMatmul(b, loc, op, tag);
  case MatmulPath::TensorCore:
    return planTensorCoreMatmul(
        b, loc, tag, getNumBatchLoops(op), bounds,
        getElementTypeOrSelf(op.getDpsInputOperand(0)->get()));
  case MatmulPath::Simt:
    return planMatmul(
        b, loc, tag,
        getSimtMatmulTiles(bounds, target,
                           getElementTypeOrSelf(op.getDpsInitOperand(0)->get())
                               .getIntOrFloatBitWidth()),
        bounds.back());
  case MatmulPath::None:
    break;
  }
  // Reductions and contractions other than matmuls (matrix-vector
  // products) along the innermost loop: one warp per output element.
  bool rowReduction =
      family == Family::Reduction || family == Family::Contraction;
  if (rowReduction && succeeded(planWarpReduction(b, loc, op, tag, bounds)))
    return success();
  int64_t width =
      family == Family::Elementwise ? getElementwiseVectorWidth(op) : 0;
  if (family == Family::Elementwise && width <= 1 &&
      planSharedTranspose(b, loc, op, tag, bounds))
    return success();
  return planParallel(b, loc, op, tag, bounds, width);
}

/// SIMT matmul: 64x64 block tiles (one batch each), K step 16, 4x4 outputs
/// per thread, A and B tiles in shared memory, 128-bit accesses (see
/// docs/planner.md).
LogicalResult Planner::planMatmul(OpBuilder &b, Location loc, StringRef tag,
                                  const SimtMatmulTiles &t, int64_t k) {
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(t.sizes(1, t.bm, t.bn, 0)),
                 TileLevel::block, nullptr);
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(t.sizes(0, 0, 0, t.bk)),
                 TileLevel::reduction, nullptr);
  if (t.promote)
    PromoteOp::create(b, loc, tag, ArrayRef<int64_t>{0, 1}, /*pad=*/0);
  TileOp::create(b, loc, tag,
                 b.getDenseI64ArrayAttr(t.threadSizes(t.tm, t.tn, 0)),
                 TileLevel::thread, nullptr);
  if (t.fast)
    VectorizeOp::create(b, loc, tag, t.width);
  // Two stages of cp.async copies: 0.085 -> 0.066 ms at 1024^3 on the H200
  // (docs/status.md), better than unrolling K or three stages.
  if (t.fast && k / t.bk >= 2)
    PipelineOp::create(b, loc, tag, /*stages=*/2);
  return success();
}

/// A fill or elementwise op fused into a SIMT matmul: the matmul's block
/// tile and the same 4x4 outputs per thread, one float4 per row.
LogicalResult Planner::planFused(OpBuilder &b, Location loc, StringRef tag,
                                 const SimtMatmulTiles &t) {
  createTiles(b, loc, tag, t.sizes(1, t.bm, t.bn, std::nullopt),
              t.threadSizes(t.tm, t.tn, std::nullopt));
  VectorizeOp::create(b, loc, tag, /*width=*/4);
  return success();
}

LogicalResult Planner::planFusedInto(OpBuilder &b, Location loc,
                                     linalg::LinalgOp op, StringRef tag,
                                     linalg::LinalgOp host) {
  switch (getMatmulPath(host, target, tf32)) {
  case MatmulPath::Wgmma:
    return success();
  case MatmulPath::None:
    return planWindowInit(b, loc, op, tag, host);
  case MatmulPath::Simt:
    return planFused(b, loc, tag,
                     getSimtMatmulTiles(host.getStaticLoopRanges(), target));
  case MatmulPath::TensorCore:
    // A fill starts the mma.sync kernel's accumulators, an elementwise op
    // runs in its epilogue: no tiles of their own.
    return success();
  }
  llvm_unreachable("unknown matmul path");
}

/// The width of the vectorize action with which a thread reads its short row
/// of `op` (a member of `group` with the row loop) whole, or 0: a static row length
/// whose bytes are a multiple of 16 in every operand that has the row, and
/// element types of 8 to 64 bits (i1 buffers hold bytes, LLVM's i1 vectors
/// bits).
int64_t getShortRowVectorWidth(linalg::LinalgOp op, const RowGroup &group) {
  if (op.getNumLoops() != group.rows.size() + 1 ||
      ShapedType::isDynamic(group.rowLength) ||
      op.getStaticLoopRanges().back() != group.rowLength)
    return 0;
  // Gathers (a padded operand read through tensor.extract), indices (an
  // argmax) and several results of a reduction stay scalar: the vectorizer
  // takes none of them.
  bool isGather = false;
  op->walk([&](Operation *inner) {
    isGather |= isa<tensor::ExtractOp, memref::LoadOp, linalg::IndexOp>(inner);
  });
  if (isGather || (op.getNumReductionLoops() > 0 && op.getNumDpsInits() > 1))
    return 0;
  // The action's width: a 128-bit vector of the op's widest element (the
  // vectorize action's limit); the rows themselves go whole.
  int64_t widest = 8;
  for (OpOperand &operand : op->getOpOperands()) {
    Type element = getElementTypeOrSelf(operand.get().getType());
    if (!element.isIntOrFloat())
      return 0;
    int64_t bits = element.getIntOrFloatBitWidth();
    if (bits < 8 || bits > 64)
      return 0;
    widest = std::max(widest, bits);
    if (op.getMatchingIndexingMap(&operand).isFunctionOfDim(
            op.getNumLoops() - 1) &&
        group.rowLength * bits % 128 != 0)
      return 0;
  }
  return 128 / widest;
}

/// A row group's op: the leading rows one per block, the last row dimension
/// in blocks of up to 8 rows (the largest power of two that divides it; one
/// when it is dynamic), one row per warp; along the row (the last loop, if
/// the op has one) neither tiled nor mapped: the warp's lanes stride over it.
/// Few rows (getRowLanes above 32): one row per block, shared by all the
/// block's threads. Rows shorter than a warp (getRowLanes 1): a row per
/// thread, 256 threads per block along the last row dimension (fewer when
/// it is shorter; the largest power of two from 32 that divides it when
/// there is one, and then whole rows in vectors), each thread running along
/// its row serially.
LogicalResult Planner::planRowGroupMember(OpBuilder &b, Location loc,
                                          linalg::LinalgOp op, StringRef tag,
                                          const RowGroup &group) {
  unsigned rowLoops = group.rows.size();
  int64_t lastRows = group.rows.back();
  int64_t lanes = getRowLanes(group, target);
  SmallVector<int64_t> blockTile(op.getNumLoops(), 0);
  for (unsigned i = 0; i < rowLoops; ++i)
    blockTile[i] = 1;
  if (lanes == 1) {
    int64_t threads = std::min(kThreadsPerBlock, target.maxThreadsPerBlock);
    // Whole blocks (static boxes for every thread, which vectors need): the
    // largest power of two from a warp to 256 that divides the rows.
    bool whole = false;
    if (!ShapedType::isDynamic(lastRows)) {
      threads = std::min<int64_t>(
          threads, llvm::PowerOf2Ceil(static_cast<uint64_t>(lastRows)));
      int64_t divisor = std::min<int64_t>(
          threads,
          int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(lastRows)));
      if (divisor == lastRows || divisor >= kWarpSize) {
        threads = divisor;
        whole = true;
      }
    }
    blockTile[rowLoops - 1] = threads;
    SmallVector<int64_t> threadTile(op.getNumLoops(), 0);
    for (unsigned i = 0; i < rowLoops; ++i)
      threadTile[i] = 1;
    TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(blockTile),
                   TileLevel::block, nullptr);
    TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(threadTile),
                   TileLevel::thread, nullptr);
    // A whole row in vectors of 128 bits when it is a multiple of them
    // (every row then starts 16 bytes aligned): read once, in 128-bit loads.
    if (int64_t width = whole ? getShortRowVectorWidth(op, group) : 0)
      VectorizeOp::create(b, loc, tag, width);
    return success();
  }
  int64_t rowsPerBlock =
      ShapedType::isDynamic(lastRows) || lanes > kWarpSize
          ? 1
          : std::min<int64_t>(kWarpsPerReductionBlock,
                              int64_t(1) << llvm::countr_zero(
                                  static_cast<uint64_t>(lastRows)));
  SmallVector<int64_t> warpTile(op.getNumLoops(), 0);
  blockTile[rowLoops - 1] = rowsPerBlock;
  warpTile[rowLoops - 1] = 1;
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(blockTile),
                 TileLevel::block, nullptr);
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(warpTile), TileLevel::warp,
                 nullptr, lanes);
  return success();
}

/// Whether every value `ops` read or write (operands, and values their
/// bodies read, such as a fused padding's source), traced back through the
/// ops that compute them, depends on at most one dynamically shaped function
/// argument (the others are temporaries sized from it). Fusing ops' block
/// loops needs their dynamic trip counts to be one value, which two
/// arguments' sizes are not, however the IR relates them (an output argument
/// beside its input); an op's loops may take their sizes from a temporary
/// computed from another argument (a window's padded copy of its input), so
/// the operands alone do not tell.
bool dependsOnOneDynamicArgument(ArrayRef<linalg::LinalgOp> ops) {
  llvm::SmallPtrSet<Value, 2> arguments;
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> worklist;
  // The values `root` and the ops in its regions use that are defined
  // outside it.
  auto addUsesOf = [&](Operation *root) {
    root->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *owner = operand.getDefiningOp();
        if (!owner)
          owner = cast<BlockArgument>(operand).getOwner()->getParentOp();
        if (!root->isAncestor(owner))
          worklist.push_back(operand);
      }
    });
  };
  for (linalg::LinalgOp op : ops)
    addUsesOf(op);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (isa<BlockArgument>(value)) {
      auto type = dyn_cast<ShapedType>(value.getType());
      if (type && !type.hasStaticShape())
        arguments.insert(value);
      continue;
    }
    addUsesOf(value.getDefiningOp());
  }
  return arguments.size() <= 1;
}

/// Whether the dynamic rows of `group` all come from one function argument
/// (dependsOnOneDynamicArgument).
bool hasOneRowSource(const RowGroup &group) {
  return llvm::none_of(group.rows, ShapedType::isDynamic) ||
         dependsOnOneDynamicArgument(group.ops);
}

/// Whether the outputs of `op` along one of its parallel loops all read the
/// same elements of the inputs indexed by other parallel loops (those
/// indexed by that loop are small tables of it and the reduction loop),
/// while its reduction (the last loop) is static and at most `warpSize`
/// long: the triangular reduction of a blocked scan, out[r, c] = sum over
/// k of where(k <= c, x[r, k], 0). A thread per output then shares each
/// load with the other lanes of its warp (one broadcast) and adds a few
/// terms, where a warp per output would load and shuffle for each one.
bool hasSharedShortReduction(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                             int64_t warpSize) {
  if (bounds.empty())
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned reduction = bounds.size() - 1;
  if (op.getNumReductionLoops() != 1 ||
      iterators.back() != utils::IteratorType::reduction ||
      ShapedType::isDynamic(bounds.back()) || bounds.back() > warpSize)
    return false;
  for (unsigned loop = 0; loop < reduction; ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel)
      continue;
    bool shared = false, tablesOnly = true;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isFunctionOfDim(loop)) {
        shared |= map.isFunctionOfDim(reduction);
        continue;
      }
      for (unsigned other = 0; other < reduction; ++other)
        tablesOnly &= other == loop || !map.isFunctionOfDim(other);
    }
    if (shared && tablesOnly)
      return true;
  }
  return false;
}

/// Whether `op` reduces along outer loops only, its innermost loop parallel
/// (a column sum, a sum over the middle dimension, the combining step of a
/// split reduction): the warp plan does not take it (planWarpReduction), the
/// parallel plan gives each thread whole outputs, reduced serially.
bool isOuterReduction(linalg::LinalgOp op) {
  Family family = classify(op);
  return (family == Family::Reduction || family == Family::Contraction) &&
         op.getNumReductionLoops() > 0 &&
         op.getIteratorTypesArray().back() == utils::IteratorType::parallel;
}

/// Whether `host` is a window (a convolution or pooling: an input read
/// through a map that is not a projection, or through tensor.extract with
/// two reduction loops or more once its padding is fused), a short
/// reduction whose outputs share their rows (hasSharedShortReduction) or a
/// reduction along outer loops (isOuterReduction), which the parallel plan
/// takes, writing its output along its parallel loops in order (dynamic ones
/// sized from one argument), and `init` the elementwise op that fills its
/// output over those loops (a bias broadcast, a pool's start value, a sum's
/// zero): the parallel plan then tiles both alike, and `init` runs in the
/// host's blocks, each thread filling what it then accumulates into.
bool isWindowInit(linalg::LinalgOp init, linalg::LinalgOp host) {
  if (!init || classify(init) != Family::Elementwise ||
      init->getNumResults() != 1 || init.getNumDpsInits() != 1 ||
      !init.getMatchingIndexingMap(init.getDpsInitOperand(0)).isIdentity() ||
      host->getNumResults() != 1 || host.getNumDpsInits() != 1)
    return false;
  // A read at index 0 of a kept unit dimension (`(d0, 0)`) is no window.
  bool strided =
      llvm::any_of(host.getDpsInputOperands(), [&](OpOperand *input) {
        return !host.getMatchingIndexingMap(input).isProjectedPermutation(
            /*allowZeroInResults=*/true);
      });
  bool gathers = isGatheredWindow(host);
  bool outer = isOuterReduction(host);
  if (!strided && !gathers && !outer &&
      !hasSharedShortReduction(host, host.getStaticLoopRanges(), kWarpSize))
    return false;
  SmallVector<unsigned> parallel;
  host.getParallelDims(parallel);
  // A window or short reduction with a reduction innermost could take the
  // warp plan (planWarpReduction) unless its parallel loops come first;
  // an outer reduction never does.
  if (!outer && !parallel.empty() && parallel.back() + 1 != parallel.size())
    return false;
  // The host writes its output along its parallel loops, in order, which
  // are the init's loops; a kept unit dimension between them (a keepdim
  // reduction's `(b, 0, c)`) is a loop of one of the init.
  SmallVector<int64_t> hostBounds = host.getStaticLoopRanges();
  SmallVector<int64_t> initBounds = init.getStaticLoopRanges();
  AffineMap out = host.getMatchingIndexingMap(host.getDpsInitOperand(0));
  if (out.getNumResults() != initBounds.size())
    return false;
  const unsigned *next = parallel.begin();
  for (auto [expr, bound] : llvm::zip(out.getResults(), initBounds)) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0 || bound != 1)
        return false;
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || next == parallel.end() || dim.getPosition() != *next ||
        hostBounds[*next] != bound)
      return false;
    ++next;
  }
  return next == parallel.end() &&
         (llvm::none_of(initBounds, ShapedType::isDynamic) ||
          dependsOnOneDynamicArgument({init, host}));
}

/// An op fused into the block loops of a matmul or a window.
struct Fusion {
  linalg::LinalgOp host;
  FuseKind kind;
};

/// Finds, for each SIMT matmul on whole tiles, the fill of its accumulator
/// (producer) and the elementwise op on its result (consumer) that can run
/// in its blocks: on tensors, single uses, f32 over the matmul's output loops
/// with identity maps on the shared value (docs/planner.md). A tensor-core
/// kernel takes its constant fill; a wgmma kernel its fill and an elementwise
/// consumer its epilogue can run.
llvm::DenseMap<Operation *, Fusion>
findFusions(ArrayRef<linalg::LinalgOp> roots, const TargetProfile &target,
            bool tf32) {
  llvm::DenseMap<Operation *, Fusion> fusions;
  llvm::SmallPtrSet<Operation *, 8> isRoot;
  for (linalg::LinalgOp op : roots)
    isRoot.insert(op);
  auto fusable = [&](linalg::LinalgOp op, ArrayRef<int64_t> shape) {
    return op && isRoot.contains(op) && !fusions.count(op) &&
           classify(op) == Family::Elementwise &&
           op.getNumLoops() == shape.size() &&
           op.getStaticLoopRanges() == SmallVector<int64_t>(shape) &&
           getElementwiseVectorWidth(op) == 4 &&
           llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
             return op.getMatchingIndexingMap(&init).isIdentity();
           });
  };
  for (linalg::LinalgOp op : roots) {
    if (getMatmulPath(op, target, tf32) == MatmulPath::None &&
        op.getNumDpsInits() == 1 && op.hasPureTensorSemantics()) {
      auto init =
          op.getDpsInitOperand(0)->get().getDefiningOp<linalg::LinalgOp>();
      if (init && init->hasOneUse() && isRoot.contains(init) &&
          !fusions.count(init) && isWindowInit(init, op))
        fusions[init] = {op, FuseKind::producer};
      continue;
    }
    MatmulPath path = getMatmulPath(op, target, tf32);
    if (path == MatmulPath::Wgmma || path == MatmulPath::TensorCore) {
      if (op->getNumResults() != 1)
        continue;
      // The kernel starts its accumulators from the fill's value (mma.sync
      // fragments take constants only).
      auto fill =
          op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
      if (fill && fill->hasOneUse() && isRoot.contains(fill) &&
          !fusions.count(fill) &&
          (path == MatmulPath::Wgmma ||
           fill.getDpsInputOperand(0)
               ->get()
               .getDefiningOp<arith::ConstantOp>()))
        fusions[fill] = {op, FuseKind::producer};
      // The elementwise op on its result runs in its epilogue (the rounding
      // to a 16-bit result, bias, activation, ...).
      Value result = op->getResult(0);
      if (result.hasOneUse()) {
        auto user = dyn_cast<linalg::GenericOp>(result.getUses().begin()->getOwner());
        if (user && isRoot.contains(user) && !fusions.count(user) &&
            user->getNumResults() == 1 &&
            whyNotEpilogueConsumer(user, result,
                                   /*inPlace=*/path == MatmulPath::TensorCore)
                .empty())
          fusions[user] = {op, FuseKind::consumer};
      }
      continue;
    }
    if (getMatmulPath(op, target, tf32) != MatmulPath::Simt ||
        op->getNumResults() != 1)
      continue;
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    if (!getSimtMatmulTiles(bounds, target).fast)
      continue;
    // Sibling loops over a dynamic batch (a dynamic M split into tiles) must
    // be sized from one argument to be proven to match.
    bool dynamic = llvm::any_of(bounds, ShapedType::isDynamic);
    auto sameLoops = [&](linalg::LinalgOp sibling) {
      return !dynamic || dependsOnOneDynamicArgument({sibling, op});
    };
    SmallVector<int64_t> shape(bounds.begin(), bounds.end() - 1);
    auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    if (fill && fill->hasOneUse() && fusable(fill, shape) && sameLoops(fill))
      fusions[fill] = {op, FuseKind::producer};
    Value result = op->getResult(0);
    if (!result.hasOneUse())
      continue;
    OpOperand &use = *result.getUses().begin();
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (fusable(user, shape) &&
        user.getMatchingIndexingMap(&use).isIdentity() && sameLoops(user))
      fusions[user] = {op, FuseKind::consumer};
  }
  return fusions;
}

/// Tensor cores: 64x64 block tiles, four warps of 32x32 each, A and B tiles
/// in shared memory (rows padded) filled by a 2-stage cp.async
/// pipeline (docs/planner.md), by the type of the operands (`input`). f16
/// and bf16: K step 32, mma.sync m16n8k16 from ldmatrix fragments. f32 (asked
/// for as tf32): K step 32, mma.sync m16n8k8 (tf32 products, f32 sums) from
/// ldmatrix fragments for A and 32-bit shared loads for B. f64: K step 16
/// (the same 4 KB per operand row of tiles), mma.sync m8n8k4 (DMMA, twice
/// the FP64 rate of the SIMT units) from 64-bit shared loads; 32x32 blocks
/// of four 16x16 warps when 64x64 ones would not give every SM two (a
/// dynamic batch counts as one).
LogicalResult Planner::planTensorCoreMatmul(OpBuilder &b, Location loc,
                                            StringRef tag, int64_t batch,
                                            ArrayRef<int64_t> bounds,
                                            Type input) {
  bool f64 = input.isF64();
  int64_t k = bounds.back();
  int64_t kStep = f64 ? kMmaReductionTileF64 : kMmaReductionTile;
  int64_t blocks = 1;
  for (int64_t bound : bounds.take_front(batch))
    blocks *= ShapedType::isDynamic(bound) ? 1 : bound;
  for (int64_t bound : bounds.slice(batch, 2))
    blocks *= ShapedType::isDynamic(bound)
                  ? 1
                  : llvm::divideCeil(bound, kMmaBlockTile);
  int64_t blockTile = kMmaBlockTile, warpTile = 32;
  if (f64 && blocks < 2 * target.numSMs) {
    blockTile = kMmaBlockTile / 2;
    warpTile = 16;
  }
  // One batch per block; the warps split the block's (m, n) tile.
  auto sizes = [&](int64_t batchSize, ArrayRef<int64_t> mnk) {
    SmallVector<int64_t> all(batch, batchSize);
    llvm::append_range(all, mnk);
    return b.getDenseI64ArrayAttr(all);
  };
  TileOp::create(b, loc, tag, sizes(1, {blockTile, blockTile, 0}),
                 TileLevel::block, nullptr);
  TileOp::create(b, loc, tag, sizes(0, {0, 0, kStep}), TileLevel::reduction,
                 nullptr);
  PromoteOp::create(b, loc, tag, ArrayRef<int64_t>{0, 1},
                    /*pad=*/
                        f64         ? kMmaPadF64
                    : input.isF32() ? kMmaPadF32
                                    : kMmaPadF16);
  TileOp::create(b, loc, tag, sizes(0, {warpTile, warpTile, 0}),
                 TileLevel::warp, nullptr);
  // 128-bit accesses.
  VectorizeOp::create(b, loc, tag, /*width=*/f64 ? 2 : 4);
  if (f64)
    MmaOp::create(b, loc, tag, MmaKind::mma_sync, ArrayRef<int64_t>{8, 8, 4},
                  MmaType::f64, MmaType::f64, MmaType::f64);
  else if (input.isF32())
    MmaOp::create(b, loc, tag, MmaKind::mma_sync, ArrayRef<int64_t>{16, 8, 8},
                  MmaType::tf32, MmaType::tf32, MmaType::f32);
  else {
    MmaType half = input.isBF16() ? MmaType::bf16 : MmaType::f16;
    MmaOp::create(b, loc, tag, MmaKind::mma_sync, ArrayRef<int64_t>{16, 8, 16},
                  half, half, MmaType::f32);
  }
  // A pipeline needs two K steps or more.
  if (k / kStep >= 2)
    PipelineOp::create(b, loc, tag, /*stages=*/2);
  return success();
}

/// Hopper: one warp-specialized TMA + wgmma kernel (docs/planner.md): block
/// tiles of 128 x BN (of one batch), K step 64, two consumer warpgroups of 64
/// rows, four stages. BN is 256 when N takes it and the 128 x 256 blocks
/// still give every SM one (a dynamic M or batch counts as enough, but for
/// the bound of a version on M), else 128 (64 for N <= 64).
LogicalResult Planner::planWgmmaMatmul(OpBuilder &b, Location loc,
                                       linalg::LinalgOp op, StringRef tag) {
  // A batch loop takes one batch per block (tile 1, grid y).
  int64_t batch = getWgmmaBatchLoops(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t m = bounds[batch], n = bounds[batch + 1];
  int64_t batches = batch ? bounds[0] : 1;
  // A dynamic M in one of qimeng-prepare's versions on M counts as the most
  // rows it has there.
  if (auto maxRows = op->getAttrOfType<IntegerAttr>(kMaxRowsAttrName);
      maxRows && ShapedType::isDynamic(m))
    m = maxRows.getInt();
  int64_t tileN = getWgmmaTileN(m, n, batches, target.numSMs);
  auto sizes = [&](int64_t lead, ArrayRef<int64_t> mnk) {
    SmallVector<int64_t> all(batch, lead);
    all.append(mnk.begin(), mnk.end());
    return b.getDenseI64ArrayAttr(all);
  };
  TileOp::create(b, loc, tag, sizes(1, {kWgmmaTileM, tileN, 0}),
                 TileLevel::block, nullptr);
  TileOp::create(b, loc, tag, sizes(0, {0, 0, kWgmmaTileK}),
                 TileLevel::reduction, nullptr);
  TileOp::create(b, loc, tag, sizes(1, {kWgmmaWarpgroupRows, tileN, 0}),
                 TileLevel::warp, nullptr);
  MmaType in = getElementTypeOrSelf(op.getDpsInputOperand(0)->get()).isBF16()
                   ? MmaType::bf16
                   : MmaType::f16;
  MmaOp::create(b, loc, tag, MmaKind::wgmma, ArrayRef<int64_t>{64, tileN, 16},
                in, in, MmaType::f32);
  PipelineOp::create(b, loc, tag, kWgmmaStages);
  return success();
}

/// Reductions along the innermost loop with one add/mul/min/max combiner on
/// 32-bit values: one warp per output element, its lanes striding over the
/// reduction loop (coalesced) and combining with shuffles; 8 warps per block
/// along the innermost parallel loop (fewer when 8 does not divide it).
/// Fails (without a diagnostic, planning nothing) when the op does not
/// qualify or its outputs share short rows (hasSharedShortReduction); the
/// caller then takes the generic plan, a thread per output.
LogicalResult Planner::planWarpReduction(OpBuilder &b, Location loc,
                                         linalg::LinalgOp op, StringRef tag,
                                         ArrayRef<int64_t> bounds) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned loops = iterators.size();
  // A dynamic reduction loop is taken to be long enough.
  if (loops < 2 || loops > 4 ||
      iterators.back() != utils::IteratorType::reduction ||
      (!ShapedType::isDynamic(bounds.back()) &&
       bounds.back() < target.warpSize) ||
      !isLaneReducible(op) ||
      hasSharedShortReduction(op, bounds, target.warpSize) ||
      // Unit dimensions a keepdim reduction keeps are indexed by 0.
      llvm::any_of(op.getIndexingMapsArray(), [](AffineMap m) {
        return !m.isProjectedPermutation(
            /*allowZeroInResults=*/true);
      }))
    return failure();
  // The lanes stride over the reduction loop: every operand it indexes must
  // be contiguous along it, or the warp's loads scatter.
  if (!isContiguousAlongInnermostLoop(op))
    return failure();
  SmallVector<int64_t> blockTile(loops, 1), warpTile(loops, 1);
  blockTile.back() = warpTile.back() = 0;
  int64_t rows = bounds[loops - 2];
  // The largest power of two <= 8 that divides the rows: every warp gets a
  // row (a dynamic number of rows: one warp per block).
  blockTile[loops - 2] =
      ShapedType::isDynamic(rows)
          ? 1
          : std::min<int64_t>(
                kWarpsPerReductionBlock,
                int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(rows)));
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(blockTile),
                 TileLevel::block, nullptr);
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(warpTile), TileLevel::warp,
                 nullptr);
  return success();
}

/// An input of an op read transposed: the mapped loop it is contiguous
/// along (another than the innermost, along which the output is), and the
/// run of 32 bytes of its elements along that loop.
struct TransposedRead {
  OpOperand *input;
  unsigned dim;
  int64_t run;
};

/// The input of `op` read transposed when that is along another of the
/// `mapped` loops than the innermost (a transpose); none when the output is
/// not contiguous along the innermost loop or the run does not divide that
/// loop.
std::optional<TransposedRead> getTransposedRead(linalg::LinalgOp op,
                                                ArrayRef<unsigned> mapped) {
  unsigned innermost = op.getNumLoops() - 1;
  if (mapped.empty() || mapped.front() != innermost)
    return std::nullopt;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (map.getNumResults() == 0 ||
        map.getResults().back() !=
            getAffineDimExpr(innermost, op->getContext()))
      return std::nullopt;
  }
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation() || map.getNumResults() == 0)
      continue;
    unsigned dim = map.getDimPosition(map.getNumResults() - 1);
    int64_t bytes = getElementBytes(getElementTypeOrSelf(input->get()));
    if (dim == innermost || !llvm::is_contained(mapped, dim) || bytes <= 0 ||
        bytes > 32)
      continue;
    int64_t run = 32 / bytes;
    if (!ShapedType::isDynamic(bounds[dim]) && bounds[dim] % run == 0)
      return TransposedRead{input, dim, run};
  }
  return std::nullopt;
}

/// A transpose through shared memory: a block copies a tile of its input,
/// up to 128 bytes along the input's contiguous loop by 64 (or 32) along
/// the output's, into shared memory with 16 bytes of padding after each
/// row, 128-bit vectors each way; each thread then reads 32 bytes of a tile
/// row (two 128-bit loads that hit different banks) and writes them down a
/// column of the output, a warp writing whole rows. For an elementwise op
/// with one input, a permutation of its loops read transposed (its last two
/// dimensions the output's last two loops, swapped), of 8 to 64-bit
/// elements, whose two tiled loops are static and divided by the tile, with
/// at most one other loop (one iteration per block). On the
/// H100 a 2048 x 4096 f32 transpose took 0.027 ms this way, 0.041 with a
/// thread per 32-byte run of the input; f16 0.017 and 0.041.
bool Planner::planSharedTranspose(OpBuilder &b, Location loc,
                                  linalg::LinalgOp op, StringRef tag,
                                  ArrayRef<int64_t> bounds) {
  unsigned loops = op.getNumLoops();
  if (loops < 2 || loops > 3 || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      op.hasIndexSemantics())
    return false;
  SmallVector<unsigned> mapped(llvm::reverse(llvm::seq<unsigned>(0, loops)));
  std::optional<TransposedRead> read = getTransposedRead(op, mapped);
  if (!read)
    return false;
  // A permutation of the loops (a broadcast has no tile rows to transpose)
  // whose rows run along the output's innermost loop: the input's tile is
  // a 2-D box (behind unit dimensions) that every thread helps copy.
  AffineMap map = op.getMatchingIndexingMap(read->input);
  unsigned innermost = loops - 1;
  if (!map.isPermutation() ||
      map.getDimPosition(map.getNumResults() - 2) != innermost)
    return false;
  Type element = getElementTypeOrSelf(read->input->get());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8 ||
      ShapedType::isDynamic(bounds[innermost]))
    return false;
  int64_t bytes = getElementBytes(element);
  int64_t lanes = 16 / bytes;
  // Up to 128 bytes (four runs) along the input's rows, 64 or 32 outputs
  // along the output's.
  int64_t rowTile = 0, colTile = 0;
  for (int64_t runs : {4, 2, 1})
    if (bounds[read->dim] % (runs * read->run) == 0) {
      rowTile = runs * read->run;
      break;
    }
  for (int64_t cols : {64, 32})
    if (bounds[innermost] % cols == 0) {
      colTile = cols;
      break;
    }
  if (rowTile == 0 || colTile == 0)
    return false;
  SmallVector<int64_t> block(loops, 1), thread(loops, 0);
  block[read->dim] = rowTile;
  block[innermost] = colTile;
  thread[read->dim] = read->run;
  thread[innermost] = 1;
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(block), TileLevel::block,
                 nullptr);
  PromoteOp::create(b, loc, tag,
                    ArrayRef<int64_t>{read->input->getOperandNumber()},
                    /*pad=*/lanes);
  TileOp::create(b, loc, tag, b.getDenseI64ArrayAttr(thread), TileLevel::thread,
                 nullptr);
  VectorizeOp::create(b, loc, tag, lanes);
  return true;
}

/// Memory-bound and fallback kernels: the innermost (up to three) parallel
/// loops are tiled to blocks of about 256 threads, one element (or one
/// 128-bit vector) per thread; reduction loops run serially in each thread.
LogicalResult Planner::planParallel(OpBuilder &b, Location loc,
                                    linalg::LinalgOp op, StringRef tag,
                                    ArrayRef<int64_t> bounds,
                                    int64_t vectorWidth) {
  FailureOr<ParallelTiles> tiles = getParallelTiles(op, bounds, vectorWidth);
  if (failed(tiles))
    return failure();
  createTiles(b, loc, tag, tiles->block, tiles->thread);
  if (tiles->width > 1)
    VectorizeOp::create(b, loc, tag, tiles->width);
  return success();
}

LogicalResult Planner::planWindowInit(OpBuilder &b, Location loc,
                                      linalg::LinalgOp op, StringRef tag,
                                      linalg::LinalgOp host) {
  FailureOr<ParallelTiles> tiles =
      getParallelTiles(host, host.getStaticLoopRanges(), /*vectorWidth=*/0);
  if (failed(tiles))
    return failure();
  // The op's loops are the host's output indices: its parallel loops, in
  // order, and kept unit dimensions, untiled (isWindowInit).
  AffineMap out = host.getMatchingIndexingMap(host.getDpsInitOperand(0));
  SmallVector<int64_t> block, thread;
  for (AffineExpr expr : out.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    block.push_back(dim ? tiles->block[dim.getPosition()] : 0);
    thread.push_back(dim ? tiles->thread[dim.getPosition()] : 0);
  }
  createTiles(b, loc, tag, block, thread);
  return success();
}

/// The threads a block puts along a loop of `runs` runs when at most `limit`
/// are left and the last block may be partial. A power of two (as many as
/// the runs need, at most `limit`), unless that leaves more than a quarter
/// of the lanes idle and the runs fit: then exactly the runs (17 outputs
/// along a row: 17 threads, not 32 with 15 idle). Counts that are not powers
/// of two make warps straddle rows, which costs more than a few idle lanes:
/// on the H100, 3-D convolutions with rows of 30 ran 0.83-0.89x as fast
/// with 30 threads as with 32, those with rows of 10 and 70 1.38x and 1.24x
/// as fast with 10 and 70 threads as with 16 and 128. When an exact count
/// inside left a `limit` that is not a power of two, a loop that does not
/// fit takes the count from `limit` down to half of it that launches the
/// fewest threads in all (17 rows over at most 15 threads: 2 blocks of 9,
/// not 15 + 2).
int64_t getPartialTileThreads(int64_t runs, int64_t limit) {
  int64_t pow2 = static_cast<int64_t>(llvm::PowerOf2Ceil(runs));
  if (runs <= limit && 4 * runs < 3 * pow2)
    return runs;
  int64_t best = std::min(pow2, limit);
  if (runs <= limit || llvm::isPowerOf2_64(limit))
    return best;
  for (int64_t t = limit; t >= std::max<int64_t>(1, limit / 2); --t)
    if (llvm::divideCeil(runs, t) * t < llvm::divideCeil(runs, best) * best)
      best = t;
  return best;
}

FailureOr<ParallelTiles> Planner::getParallelTiles(linalg::LinalgOp op,
                                                   ArrayRef<int64_t> bounds,
                                                   int64_t vectorWidth) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // Dynamic loops (e.g. a batch dimension of unknown size) are mapped too:
  // their number of blocks is computed at run time.
  SmallVector<unsigned> parallel;
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel)
      parallel.push_back(i);
  if (parallel.empty())
    return op->emitOpError() << "has no parallel loop to map to GPU threads";
  // Map at most three parallel loops, innermost first.
  SmallVector<unsigned> mapped = getThreadLoops(op);
  // A transposing read (an input contiguous along another mapped loop than
  // the innermost, whose output rows are): each thread takes a run of 32
  // bytes along that loop, so a warp reads whole sectors and still writes
  // whole rows.
  std::optional<unsigned> runLoop;
  int64_t run = 1;
  if (!naive && vectorWidth <= 1)
    if (std::optional<TransposedRead> found = getTransposedRead(op, mapped)) {
      runLoop = found->dim;
      run = found->run;
    }
  SmallVector<int64_t> blockSizes, threadSizes;
  int64_t blockThreads = 1;
  // Tiles with `width` elements per thread along the innermost loop. With
  // `whole`, every block is whole (thread counts that divide the static
  // loops, one iteration per block along dynamic ones), so every thread's
  // box is static and can be vectorized; otherwise power-of-two thread
  // counts, the last block along a loop they do not divide being partial.
  // `box`, when given, is each loop's outputs per thread (with `whole`).
  auto computeTiles = [&](int64_t width, bool whole,
                          ArrayRef<int64_t> box = {}) {
    blockSizes.assign(bounds.size(), 0);
    threadSizes.assign(bounds.size(), 0);
    blockThreads = 1;
    int64_t maxThreads = std::min(kThreadsPerBlock, target.maxThreadsPerBlock);
    int64_t threadsLeft = maxThreads;
    for (auto [i, dim] : llvm::enumerate(mapped)) {
      int64_t perThread = !box.empty()     ? box[dim]
                          : dim == runLoop ? run
                          : i == 0         ? width
                                           : 1;
      int64_t threads;
      if (ShapedType::isDynamic(bounds[dim])) {
        // One iteration per block keeps the threads' boxes static when the
        // loops inside already give the block 64 threads or more (a batch
        // of rows); otherwise the rest of the block's threads.
        perThread = dim == runLoop ? run : 1;
        threads = whole || (i > 0 && threadsLeft <= maxThreads / 64)
                      ? 1
                      : threadsLeft;
      } else if (whole) {
        // The most threads that divide the loop's runs of `perThread`.
        int64_t runs = bounds[dim] / perThread;
        threads = 1;
        for (int64_t d = std::min(runs, threadsLeft); d >= 1; --d)
          if (runs % d == 0) {
            threads = d;
            break;
          }
      } else {
        threads = getPartialTileThreads(
            llvm::divideCeil(bounds[dim], perThread), threadsLeft);
      }
      blockSizes[dim] = threads * perThread;
      threadSizes[dim] = perThread;
      blockThreads *= threads;
      threadsLeft = maxThreads / blockThreads;
    }
    // The parallel loops beyond the three that have threads: one iteration
    // per block (no thread tile).
    for (unsigned dim : parallel)
      if (!llvm::is_contained(mapped, dim))
        blockSizes[dim] = 1;
  };
  // Vectors need whole blocks and static boxes for every thread; the
  // threads along a row read 128 bytes or more of it in a row (or all of
  // it), and a block has a warp or more.
  int64_t width = 1;
  if (vectorWidth > 1 && iterators.back() == utils::IteratorType::parallel &&
      mapped.front() == bounds.size() - 1 &&
      !ShapedType::isDynamic(bounds.back()) &&
      bounds.back() % vectorWidth == 0) {
    computeTiles(vectorWidth, /*whole=*/true);
    int64_t innerThreads = blockSizes.back() / vectorWidth;
    bool staticRest = llvm::all_of(llvm::enumerate(bounds), [&](auto entry) {
      return !ShapedType::isDynamic(entry.value()) ||
             blockSizes[entry.index()] == 1;
    });
    if (staticRest &&
        (innerThreads >= 8 || innerThreads == bounds.back() / vectorWidth) &&
        blockThreads >= 32)
      width = vectorWidth;
  }
  // A convolution's threads each compute a box of filters and pixels
  // (getConvolutionBox), in whole blocks that keep every box static, unless
  // those leave blocks of fewer than kMinBoxBlockThreads threads or fewer
  // than a warp's quarter along the innermost loop.
  if (width == 1 && !naive && vectorWidth <= 1 && !runLoop) {
    SmallVector<int64_t> box =
        getConvolutionBox(op, bounds, mapped, target.numSMs);
    if (!box.empty()) {
      computeTiles(1, /*whole=*/true, box);
      unsigned inner = mapped.front();
      int64_t innerThreads = blockSizes[inner] / box[inner];
      if (blockThreads >= kMinBoxBlockThreads &&
          (innerThreads >= kWarpSize / 4 ||
           innerThreads == bounds[inner] / box[inner]))
        return ParallelTiles{blockSizes, threadSizes, 1};
    }
  }
  if (width == 1)
    computeTiles(1, /*whole=*/false);
  return ParallelTiles{blockSizes, threadSizes, width};
}

/// Whether QiMeng computes with `type` (an element type or a scalar):
/// f16, bf16, f32, f64, i1, i8, i16, i32, i64 and index.
bool isSupportedScalar(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
      type.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer &&
         llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
}

/// Reports a value of `op` (operand or result, element of a shaped type or
/// scalar) whose type QiMeng does not compute with; the diagnostic names the
/// op and the type.
LogicalResult checkScalarTypes(Operation *op) {
  auto check = [&](Type type, StringRef what) -> LogicalResult {
    Type element = getElementTypeOrSelf(type);
    if (isSupportedScalar(element))
      return success();
    // Types that hold no data the kernels compute with (tokens, ...).
    if (!isa<ShapedType, FloatType, IntegerType, ComplexType>(type))
      return success();
    return op->emitOpError()
           << "has " << what << " of element type " << element
           << ", which QiMeng does not support (it computes with f16, bf16, "
              "f32, f64, i1, i8, i16, i32, i64 and index)";
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type, "an operand")))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type, "a result")))
      return failure();
  return success();
}

class QiMengPlanPass : public impl::QiMengPlanPassBase<QiMengPlanPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetProfile> profile = lookupTargetProfile(target, module);
    if (!profile)
      return signalPassFailure();
    llvm::StringSet<> planned;
    for (PlanOp plan : module.getOps<PlanOp>())
      planned.insert(plan.getKernel());

    Planner planner(*profile, naive, tf32 && !naive);
    OpBuilder builder(&getContext());
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || planned.contains(func.getSymName()))
        continue;
      if (failed(planFunction(builder, planner, func)))
        return signalPassFailure();
    }
  }

private:
  LogicalResult planFunction(OpBuilder &builder, Planner &planner,
                             func::FuncOp func) {
    SmallVector<linalg::LinalgOp> roots;
    Operation *unsupported = nullptr;
    // Element types first: the planner sizes tiles and vectors by them.
    for (Type type : func.getFunctionType().getInputs())
      if (!isSupportedScalar(getElementTypeOrSelf(type)) &&
          isa<ShapedType, FloatType, IntegerType, ComplexType>(type))
        return func.emitOpError()
               << "takes a value of type " << type
               << ", whose element type QiMeng does not support (it computes "
                  "with f16, bf16, f32, f64, i1, i8, i16, i32, i64 and index)";
    WalkResult typed = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Code mapped to the GPU already is kept as it is (see below).
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<func::FuncOp>(op))
        return WalkResult::advance();
      return failed(checkScalarTypes(op)) ? WalkResult::interrupt()
                                          : WalkResult::advance();
    });
    if (typed.wasInterrupted())
      return failure();
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        roots.push_back(linalgOp);
        return WalkResult::skip();
      }
      // Code already mapped to the GPU (hand-written kernels) is kept as is.
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      StringRef dialect = op->getName().getDialectNamespace();
      if (isa<func::FuncOp, func::ReturnOp, scf::IfOp, scf::YieldOp>(op) ||
          dialect == "arith" || dialect == "tensor" ||
          dialect == "bufferization" || dialect == "index" ||
          isa<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp>(
              op) ||
          isa<memref::AllocOp, memref::DeallocOp, memref::AllocaOp,
              memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp,
              memref::CastOp, memref::ReshapeOp>(op))
        return WalkResult::advance();
      if (!unsupported)
        unsupported = op;
      return WalkResult::skip();
    });
    if (unsupported)
      return unsupported->emitOpError()
             << "is not supported by the built-in planner: it plans linalg "
                "operations";
    if (roots.empty())
      return success();

    builder.setInsertionPointAfter(func);
    auto plan =
        PlanOp::create(builder, func.getLoc(), func.getSymName(), "builtin");
    builder.setInsertionPointToEnd(&plan.getBody().front());
    llvm::StringMap<unsigned> counts;
    // Generated tags skip the ones the input already uses.
    llvm::StringSet<> used;
    for (linalg::LinalgOp op : roots)
      if (auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName))
        used.insert(tag.getValue());
    // Tags first: fusions name both of their ops.
    for (linalg::LinalgOp op : roots) {
      Family family = classify(op);
      std::string tag;
      if (auto existing =
              op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName))
        tag = existing.getValue().str();
      else {
        StringRef prefix =
            isa<linalg::FillOp>(op) ? StringRef("fill") : familyName(family);
        do
          tag = (prefix + Twine(counts[prefix]++)).str();
        while (used.contains(tag));
        used.insert(tag);
      }
      op->setAttr(QiMengDialect::kTagAttrName, builder.getStringAttr(tag));
    }
    auto tagOf = [](linalg::LinalgOp op) {
      return op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName)
          .getValue();
    };
    llvm::DenseMap<Operation *, Fusion> fusions;
    SmallVector<RowGroup> rowGroups;
    llvm::DenseMap<Operation *, const RowGroup *> rowGroupOf;
    if (!naive) {
      fusions = findFusions(roots, planner.getTarget(), planner.allowsTf32());
      // Matmuls keep their own plans.
      llvm::SmallPtrSet<Operation *, 8> fused;
      for (auto &[op, fusion] : fusions) {
        fused.insert(op);
        fused.insert(fusion.host);
      }
      for (linalg::LinalgOp op : roots)
        if (getMatmulPath(op, planner.getTarget(), planner.allowsTf32()) !=
            MatmulPath::None)
          fused.insert(op);
      // A reduction whose outputs share short rows takes a thread per
      // output (planWarpReduction), not a row group's lanes.
      int64_t warpSize = planner.getTarget().warpSize;
      rowGroups = findRowGroups(
          roots,
          [&](linalg::LinalgOp op) {
            return isLaneReducible(op) &&
                   !hasSharedShortReduction(op, op.getStaticLoopRanges(),
                                            warpSize);
          },
          fused);
      llvm::erase_if(rowGroups, [&](const RowGroup &group) {
        return !isWorthOneKernel(group, planner.getTarget()) ||
               !hasOneRowSource(group);
      });
      for (const RowGroup &group : rowGroups)
        for (linalg::LinalgOp op : group.ops)
          rowGroupOf[op] = &group;
    }
    for (linalg::LinalgOp op : roots) {
      auto fusion = fusions.find(op);
      auto row = rowGroupOf.find(op);
      LogicalResult planned =
          row != rowGroupOf.end()
              ? planner.planRowGroupMember(builder, op.getLoc(), op, tagOf(op),
                                           *row->second)
          : fusion == fusions.end()
              ? planner.plan(builder, op.getLoc(), op, tagOf(op))
              : planner.planFusedInto(builder, op.getLoc(), op, tagOf(op),
                                      fusion->second.host);
      if (failed(planned)) {
        plan->erase();
        return failure();
      }
    }
    if (!naive)
      plan->setAttr(QiMengDialect::kReplaceableAttrName, builder.getUnitAttr());
    // Fusions come last: they merge loops the actions above made.
    for (linalg::LinalgOp op : roots)
      if (auto fusion = fusions.find(op); fusion != fusions.end())
        FuseOp::create(builder, op.getLoc(), tagOf(fusion->second.host),
                       fusion->second.kind, tagOf(op));
    // A row group runs in the block loop of its last op, the others placed
    // before it in program order (fused last to first).
    for (const RowGroup &group : rowGroups) {
      linalg::LinalgOp host = group.ops.back();
      for (linalg::LinalgOp op :
           llvm::reverse(ArrayRef<linalg::LinalgOp>(group.ops).drop_back()))
        FuseOp::create(builder, op.getLoc(), tagOf(host), FuseKind::producer,
                       tagOf(op));
    }
    return success();
  }
};

} // namespace
} // namespace mlir::qimeng
