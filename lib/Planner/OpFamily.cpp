//===- OpFamily.cpp - The operation families planners tell apart ----------===//

#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::qimeng;

StringRef mlir::qimeng::familyName(Family family) {
  switch (family) {
  case Family::Matmul:
    return "matmul";
  case Family::Contraction:
    return "contraction";
  case Family::Convolution:
    return "conv";
  case Family::Pooling:
    return "pool";
  case Family::Reduction:
    return "reduction";
  case Family::Elementwise:
    return "elementwise";
  }
  llvm_unreachable("unknown family");
}

Family mlir::qimeng::classify(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return Family::Elementwise;
  if (linalg::isaContractionOpInterface(op)) {
    // Every operand a matrix: (m, k) x (k, n) -> (m, n) in some order.
    if (op.getNumLoops() == 3 && op.getNumParallelLoops() == 2 &&
        op.getIteratorTypesArray()[2] == utils::IteratorType::reduction &&
        llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) {
          return m.isProjectedPermutation() && m.getNumResults() == 2;
        }))
      return Family::Matmul;
    return Family::Contraction;
  }
  if (op->getName().getStringRef().starts_with("linalg.pooling"))
    return Family::Pooling;
  if (linalg::isaConvolutionOpInterface(op))
    return Family::Convolution;
  return Family::Reduction;
}

int64_t mlir::qimeng::getNumBatchLoops(linalg::LinalgOp op) {
  Family family = classify(op);
  if (family == Family::Matmul)
    return 0;
  unsigned loops = op.getNumLoops();
  if (family != Family::Contraction || loops < 4 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return -1;
  unsigned batch = loops - 3;
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return -1;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation() || map.getNumResults() < 2)
      return -1;
    unsigned lead = map.getNumResults() - 2;
    // The right operand may be shared by some batch loops or all (a
    // dynamic M split into tiles, the parts of a split K): its leading
    // indices are batch loops in order, some left out.
    if (&operand == op.getDpsInputOperand(1)) {
      for (unsigned i = 0; i < lead; ++i)
        if (map.getDimPosition(i) >= batch ||
            (i > 0 && map.getDimPosition(i) <= map.getDimPosition(i - 1)))
          return -1;
      continue;
    }
    if (lead != batch)
      return -1;
    for (unsigned i = 0; i < batch; ++i)
      if (map.getDimPosition(i) != i)
        return -1;
  }
  return batch;
}

int64_t mlir::qimeng::choosePartCount(int64_t wanted, int64_t extent,
                                      int64_t minPart) {
  int64_t parts = llvm::PowerOf2Ceil(std::max<int64_t>(1, wanted));
  while (parts > 1 && (extent % parts != 0 || extent / parts < minPart))
    parts /= 2;
  return parts;
}

int64_t mlir::qimeng::chooseDividingPartCount(int64_t wanted, int64_t extent,
                                              int64_t minPart) {
  int64_t parts = choosePartCount(wanted, extent, minPart);
  if (parts > 1 || extent % 2 == 0 || extent < kMinOddSplitExtent)
    return parts;
  int64_t bound =
      std::min<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(1, wanted)),
                        extent / std::max<int64_t>(1, minPart));
  for (int64_t d = bound; d > 1; --d)
    if (extent % d == 0)
      return d;
  return 1;
}

/// Whether `op`'s maps read A (b, m, k) and B (b, k, n) (or, with `nkRhs`,
/// (b, n, k)) into C (b, m, n), for `batch` leading batch loops b. With
/// `splitK` (one batch loop s, the parts of a split K): A (m, s, k) and B
/// (s, k, n) or (n, s, k), the part between the row and the column of A and
/// of a (n, k) B.
static bool hasMatmulMaps(linalg::LinalgOp op, unsigned batch, bool nkRhs,
                          bool splitK = false) {
  if (splitK && batch != 1)
    return false;
  MLIRContext *ctx = op->getContext();
  unsigned loops = batch + 3;
  SmallVector<AffineExpr> lead;
  for (unsigned i = 0; i < batch; ++i)
    lead.push_back(getAffineDimExpr(i, ctx));
  AffineExpr m = getAffineDimExpr(batch, ctx),
             n = getAffineDimExpr(batch + 1, ctx),
             k = getAffineDimExpr(batch + 2, ctx);
  // (b..., row, col), or (row, s, col) for an operand whose columns hold a
  // split K's parts.
  auto map = [&](AffineExpr row, AffineExpr col, bool columnParts = false) {
    SmallVector<AffineExpr> results;
    if (columnParts) {
      results = {row, lead.front(), col};
    } else {
      results = lead;
      results.append({row, col});
    }
    return AffineMap::get(loops, 0, results, ctx);
  };
  return op.getNumLoops() == loops &&
         op.getIndexingMapsArray() ==
             SmallVector<AffineMap>{map(m, k, splitK),
                                    nkRhs ? map(n, k, splitK) : map(k, n),
                                    map(m, n)};
}

bool mlir::qimeng::hasRowMajorMatmulMaps(linalg::LinalgOp op) {
  return hasMatmulMaps(op, 0, /*nkRhs=*/false);
}

bool mlir::qimeng::isSplitKMatmul(linalg::LinalgOp op) {
  return hasMatmulMaps(op, 1, /*nkRhs=*/false, /*splitK=*/true) ||
         hasMatmulMaps(op, 1, /*nkRhs=*/true, /*splitK=*/true);
}

int64_t mlir::qimeng::getWgmmaBatchLoops(linalg::LinalgOp op) {
  return op.getNumLoops() == 4 &&
                 (getNumBatchLoops(op) == 1 || isSplitKMatmul(op))
             ? 1
             : 0;
}

bool mlir::qimeng::readsNKRhs(linalg::LinalgOp op) {
  return hasMatmulMaps(op, getWgmmaBatchLoops(op), /*nkRhs=*/true) ||
         hasMatmulMaps(op, 1, /*nkRhs=*/true, /*splitK=*/true);
}

int64_t mlir::qimeng::getWgmmaTileN(int64_t m, int64_t n, int64_t batches,
                                    int64_t numSMs) {
  if (n <= 64)
    return 64;
  if (n < 256)
    return 128;
  int64_t blocks = ShapedType::isDynamic(m) || ShapedType::isDynamic(batches)
                       ? numSMs
                       : batches * llvm::divideCeil(m, kWgmmaTileM) *
                             llvm::divideCeil(n, 256);
  return blocks >= numSMs ? 256 : 128;
}

bool mlir::qimeng::isContiguousAlongInnermostLoop(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0)
    return true;
  unsigned last = op.getNumLoops() - 1;
  AffineExpr innermost = getAffineDimExpr(last, op->getContext());
  return llvm::all_of(op.getIndexingMapsArray(), [&](AffineMap map) {
    return !map.isFunctionOfDim(last) || map.getResults().back() == innermost;
  });
}

bool mlir::qimeng::isWholeBatchedOperand(Value operand) {
  auto buffer = dyn_cast<MemRefType>(operand.getType());
  return !(buffer && !buffer.getLayout().isIdentity()) &&
         !operand.getDefiningOp<tensor::ExtractSliceOp>();
}

/// Whether `op` is a wgmma matmul but for N and K being multiples of 8:
/// its maps as hasRowMajorMatmulMaps (or, with `general`, B stored (n, k)
/// and one batch loop leading every operand), the element types, and a
/// static N and a static K of one K step or more.
static bool isWgmmaMatmul(linalg::LinalgOp op, bool general) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  unsigned batch = general ? getWgmmaBatchLoops(op) : 0;
  if (op.getNumLoops() != batch + 3 ||
      !(hasMatmulMaps(op, batch, /*nkRhs=*/false) ||
        (general &&
         (hasMatmulMaps(op, batch, /*nkRhs=*/true) || isSplitKMatmul(op)))))
    return false;
  if (batch && !llvm::all_of(op.getDpsInputOperands(), [](OpOperand *input) {
        return isWholeBatchedOperand(input->get());
      }))
    return false;
  auto elementOf = [](OpOperand *operand) {
    return getElementTypeOrSelf(operand->get().getType());
  };
  Type lhs = elementOf(op.getDpsInputOperand(0));
  Type rhs = elementOf(op.getDpsInputOperand(1));
  Type acc = elementOf(op.getDpsInitOperand(0));
  if (lhs != rhs || !(lhs.isBF16() || lhs.isF16()) ||
      !(acc.isF32() || acc.isBF16() || acc.isF16()))
    return false;
  // At least one of the plan's 64-deep K steps: a shorter K (777x2 · 2x257)
  // leaves the tensor cores idle and the kernel memory-bound (padded to 8 and
  // run on wgmma, 0.0146 -> 0.0213 ms on the H200).
  constexpr int64_t kMinK = 64;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t n = bounds[batch + 1], k = bounds[batch + 2];
  return !ShapedType::isDynamic(n) && !ShapedType::isDynamic(k) && n > 0 &&
         k >= kMinK;
}

bool mlir::qimeng::takesWgmmaOncePadded(linalg::LinalgOp op) {
  return isWgmmaMatmul(op, /*general=*/false);
}

bool mlir::qimeng::takesWgmma(linalg::LinalgOp op, bool rhsSwapped) {
  if (!isWgmmaMatmul(op, /*general=*/true))
    return false;
  int64_t batch = getWgmmaBatchLoops(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t n = bounds[batch + 1], k = bounds[batch + 2];
  // TMA reads rows 16-byte multiples apart: A's and a (n, k) B's are K
  // long, a (k, n) B's N.
  bool nk = readsNKRhs(op) != rhsSwapped;
  if (k % 8 != 0 || (!nk && n % 8 != 0))
    return false;
  // The kernel reads a batched B (k, n) as one (batch x K, N) matrix: a K
  // off the 64-deep K step would read the next batch's first rows (times
  // A's zero fill, but NaN or inf in them would show). The parts of a split
  // K are columns of one A (and of one (n, k) B): a part off the K step
  // would add the next part's products.
  if (isSplitKMatmul(op))
    return k % kWgmmaTileK == 0;
  return batch == 0 || nk || k % kWgmmaTileK == 0;
}

/// getWgmmaKSplits for an (m x n x k) product, m and n static, k a
/// multiple of the K step.
static int64_t chooseWgmmaKSplits(int64_t m, int64_t n, int64_t k,
                                  int64_t numSMs) {
  // A rough cost model, in nanoseconds on an H100 or H200: a block's
  // (128 x 128 x 64) K step at about three quarters of the tensor cores'
  // peak, the memory's bandwidth for the partial sums (each written and
  // read back as f32), and the extra launch of the kernel that adds them.
  // A split must save a fifth of the unsplit time. Parts are powers of two
  // of at least four K steps (a shorter part spends more on filling its
  // ring than on the product), at most 16, and at most one block per SM
  // (a block's stages take most of an SM's shared memory: a second wave
  // would cost as much as parts twice as long).
  constexpr double kStepNs = 350, kBytesPerNs = 3000, kLaunchNs = 1500;
  constexpr int64_t kMinPartSteps = 4, kMaxWgmmaKSplits = 16;
  int64_t tiles = llvm::divideCeil(m, kWgmmaTileM) *
                  llvm::divideCeil(n, getWgmmaTileN(m, n, 1, numSMs));
  int64_t steps = k / kWgmmaTileK;
  auto cost = [&](int64_t parts) {
    double ns = static_cast<double>(steps / parts) * kStepNs;
    if (parts > 1)
      ns += 2.0 * parts * m * n * 4 / kBytesPerNs + kLaunchNs;
    return ns;
  };
  int64_t best = 1;
  for (int64_t parts = 2;
       parts <= kMaxWgmmaKSplits && parts * tiles <= numSMs &&
       steps % parts == 0 && steps / parts >= kMinPartSteps;
       parts *= 2)
    if (cost(parts) < cost(best))
      best = parts;
  return cost(best) < 0.8 * cost(1) ? best : 1;
}

/// Whether `op` is a matmul split-K may take: the wgmma kernel's, no batch,
/// a static N and a K of whole K steps.
static bool isSplittableWgmmaMatmul(linalg::LinalgOp op, int64_t numSMs) {
  if (numSMs <= 0 || getWgmmaBatchLoops(op) != 0 || !takesWgmma(op))
    return false;
  return op.getStaticLoopRanges()[2] % kWgmmaTileK == 0;
}

int64_t mlir::qimeng::getWgmmaKSplits(linalg::LinalgOp op, int64_t numSMs) {
  if (!isSplittableWgmmaMatmul(op, numSMs))
    return 1;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(bounds[0]))
    return 1;
  return chooseWgmmaKSplits(bounds[0], bounds[1], bounds[2], numSMs);
}

SmallVector<WgmmaRowVersion>
mlir::qimeng::getWgmmaRowVersions(linalg::LinalgOp op, int64_t numSMs) {
  SmallVector<WgmmaRowVersion> versions;
  if (numSMs <= 0 || getWgmmaBatchLoops(op) != 0 || !takesWgmma(op))
    return versions;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (!ShapedType::isDynamic(bounds[0]))
    return versions;
  int64_t n = bounds[1], k = bounds[2];
  bool splittable = isSplittableWgmmaMatmul(op, numSMs);
  int64_t dynamicTileN = getWgmmaTileN(ShapedType::kDynamic, n, 1, numSMs);
  // Row tiles one at a time, each judged at its largest M. Both a split
  // and narrower tiles need fewer blocks than SMs, so the walk ends by
  // numSMs row tiles.
  for (int64_t rowTiles = 1;; ++rowTiles) {
    int64_t rows = rowTiles * kWgmmaTileM;
    int64_t parts = splittable ? chooseWgmmaKSplits(rows, n, k, numSMs) : 1;
    int64_t tileN = getWgmmaTileN(rows, n, 1, numSMs);
    if (parts == 1 && tileN == dynamicTileN)
      break;
    if (!versions.empty() && versions.back().parts == parts &&
        versions.back().tileN == tileN)
      versions.back().maxRows = rows;
    else
      versions.push_back({rows, parts, tileN});
  }
  return versions;
}
