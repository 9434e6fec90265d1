//===- SplitReductions.cpp - Reductions that fill the GPU -----------------===//
//
// A reduction with few outputs gives the built-in plans too few threads
// (softmax over 16 rows: 16 warps on a 132-SM GPU) and long serial sums (a
// layer norm over 4M elements per row). This pass splits such a reduction
// into a partial reduction with an extra parallel loop and a combining
// reduction over it (upstream linalg::splitReduction), after bringing it into
// the form that needs: one output without unit-dimension constants, one
// reduction loop (contiguous reduction loops are collapsed into one).
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/OpFamily.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGSPLITREDUCTIONSPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Threads per SM the split aims for (half of the 2048 an sm_80/sm_90 SM
/// holds): enough loads in flight to reach the memory bandwidth.
constexpr int64_t kTargetThreadsPerSM = 1024;
/// Shortest part a split leaves to each output: 8 elements per lane of a
/// warp-reduced row, 8 per thread of a serially reduced column.
constexpr int64_t kMinWarpPart = 256;
constexpr int64_t kMinSerialPart = 8;

/// Rewrites a generic whose output map has constant-0 results (unit
/// dimensions kept by a keepdim reduction) to write the output without
/// them: a collapse_shape of the init, an expand_shape of the result.
FailureOr<linalg::GenericOp> dropUnitOutputDims(RewriterBase &rewriter,
                                                linalg::GenericOp op) {
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap map = op.getMatchingIndexingMap(init);
  auto type = cast<RankedTensorType>(init->get().getType());
  SmallVector<AffineExpr> kept;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    pending.push_back(i);
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant && constant.getValue() == 0 && type.getDimSize(i) == 1)
      continue;
    if (!isa<AffineDimExpr>(expr))
      return failure();
    kept.push_back(expr);
    shape.push_back(type.getDimSize(i));
    groups.push_back(pending);
    pending.clear();
  }
  if (kept.size() == map.getNumResults() || kept.empty())
    return failure();
  // Trailing unit dimensions join the last kept group.
  llvm::append_range(groups.back(), pending);

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto collapsedType = RankedTensorType::get(shape, type.getElementType());
  Value collapsed = tensor::CollapseShapeOp::create(
      rewriter, loc, collapsedType, init->get(), groups);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.back() = AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
  auto rewritten = linalg::GenericOp::create(
      rewriter, loc, TypeRange{collapsedType}, op.getDpsInputs(),
      ValueRange{collapsed}, maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), rewritten.getRegion(),
                              rewritten.getRegion().begin());
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, loc, type, rewritten.getResult(0), groups);
  rewriter.replaceOp(op, expanded);
  return rewritten;
}

/// Collapses the reduction loops of `op` into one when they are adjacent
/// and contiguous in every operand.
FailureOr<linalg::LinalgOp> collapseReductionLoops(RewriterBase &rewriter,
                                                   linalg::GenericOp op) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  if (dims.size() < 2)
    return linalg::LinalgOp(op);
  for (unsigned i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return failure();
  ReassociationIndices group(dims.begin(), dims.end());
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {group}))
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {group}, rewriter);
  if (failed(collapsed))
    return failure();
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

/// How many parts the reduction of `op` should be split into, or 1 when its
/// outputs times threads per output reach half of kTargetThreadsPerSM
/// threads per SM: enough parts to reach all of it, each part long enough to be
/// worth a thread (or a warp, when the reduction loops are the innermost ones:
/// the warp-reduction plan). Its reduction loops count as one (they are
/// collapsed before the split).
int64_t getSplitRatio(linalg::LinalgOp op, const TargetProfile &target) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (dims.empty() || llvm::any_of(bounds, ShapedType::isDynamic))
    return 1;
  int64_t outputs = 1, extent = 1;
  for (auto [i, bound] : llvm::enumerate(bounds))
    (llvm::is_contained(dims, i) ? extent : outputs) *= bound;
  bool innermost = dims.back() == bounds.size() - 1;
  int64_t threadsPerOutput = innermost ? target.warpSize : 1;
  int64_t minPart = innermost ? kMinWarpPart : kMinSerialPart;
  int64_t threads = outputs * threadsPerOutput;
  int64_t targetThreads = target.numSMs * kTargetThreadsPerSM;
  // Half the target is enough to keep the memory system busy.
  if (2 * threads >= targetThreads)
    return 1;
  int64_t wanted = llvm::divideCeil(targetThreads, threads);
  int64_t ratio = llvm::PowerOf2Ceil(wanted);
  while (ratio > 1 && (extent % ratio != 0 || extent / ratio < minPart))
    ratio /= 2;
  return ratio;
}

/// Whether the built-in plans would run `op` with too few threads and it is
/// a plain reduction the split applies to: static shapes, one output with
/// one combiner, projected-permutation maps (up to unit output dimensions),
/// no index reads. Matmuls keep their own plan, windows (convolutions,
/// pooling) are not split.
bool isSplitCandidate(linalg::LinalgOp op) {
  Family family = classify(op);
  if (family != Family::Reduction && family != Family::Contraction)
    return false;
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.hasIndexSemantics())
    return false;
  if (llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return false;
  SmallVector<Operation *> combiners;
  return matchReduction(op.getRegionOutputArgs(), 0, combiners) &&
         combiners.size() == 1;
}

class QiMengSplitReductionsPass
    : public impl::QiMengSplitReductionsPassBase<QiMengSplitReductionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetProfile> profile =
        lookupTargetProfile(target, getOperation());
    if (!profile)
      return signalPassFailure();
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isSplitCandidate(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates)
      split(rewriter, op, *profile);
  }

private:
  /// Splits `op` when that helps; leaves it unchanged otherwise.
  void split(RewriterBase &rewriter, linalg::LinalgOp op,
             const TargetProfile &profile) {
    // Decided on the op as it is: the rewrites below only change its form.
    int64_t ratio = getSplitRatio(op, profile);
    if (ratio <= 1)
      return;
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (generic) {
      if (FailureOr<linalg::GenericOp> dropped =
              dropUnitOutputDims(rewriter, generic);
          succeeded(dropped))
        generic = *dropped;
      FailureOr<linalg::LinalgOp> collapsed =
          collapseReductionLoops(rewriter, generic);
      if (failed(collapsed))
        return;
      op = *collapsed;
    }
    if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0))
             .isProjectedPermutation())
      return;
    SmallVector<unsigned> dims;
    op.getReductionDims(dims);
    if (dims.size() != 1)
      return;
    linalg::ControlSplitReductionFn control = [&](linalg::LinalgOp) {
      return linalg::SplitReductionOptions{ratio, dims.front(),
                                           /*innerParallel=*/false};
    };
    (void)linalg::splitReduction(rewriter, op, control);
  }
};

} // namespace
} // namespace mlir::qimeng
