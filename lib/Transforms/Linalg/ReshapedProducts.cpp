//===- ReshapedProducts.cpp - Consumers of reshaped products --------------===//

#include "ReshapedProducts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::qimeng {
namespace {

/// The groups of `generic`'s loops that `expand` (the reshape through which
/// `operand` reaches it) split from one dimension of its source, each
/// ascending and contiguous; failure when a group is not (the generic reads
/// the dimensions transposed or not at all).
static FailureOr<SmallVector<ReassociationIndices>>
getSplitLoops(linalg::GenericOp generic, OpOperand &operand,
              tensor::ExpandShapeOp expand) {
  AffineMap map = generic.getMatchingIndexingMap(&operand);
  SmallVector<ReassociationIndices> split;
  for (const ReassociationIndices &group : expand.getReassociationIndices()) {
    if (group.size() < 2)
      continue;
    ReassociationIndices loops;
    for (int64_t dim : group) {
      unsigned loop = cast<AffineDimExpr>(map.getResult(dim)).getPosition();
      if (!loops.empty() && loop != loops.back() + 1)
        return failure();
      loops.push_back(loop);
    }
    split.push_back(std::move(loops));
  }
  if (split.empty())
    return failure();
  return split;
}

struct CollapseOverReshapedProduct
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (generic.getNumReductionLoops() != 0 ||
        !generic.hasPureTensorSemantics() || generic.hasIndexSemantics())
      return rewriter.notifyMatchFailure(generic, "not a plain elementwise op");
    // Gathers (tensor.extract in the body) index their sources themselves.
    if (!generic.getBody()->getOps<tensor::ExtractOp>().empty())
      return rewriter.notifyMatchFailure(generic, "a gather");
    // Reads at a constant index (a keepdim value's unit dimension read at 0)
    // are not collapsed by upstream's collapseOpIterationDims (it builds an
    // invalid reshape of such an operand).
    if (!llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation(/*allowZeroInResults=*/false);
        }))
      return rewriter.notifyMatchFailure(generic, "reads at a constant index");
    for (OpOperand &operand : generic->getOpOperands()) {
      auto expand = operand.get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      auto product = expand.getSrc().getDefiningOp<linalg::LinalgOp>();
      if (!product || !linalg::isaContractionOpInterface(product))
        continue;
      FailureOr<SmallVector<ReassociationIndices>> split =
          getSplitLoops(generic, operand, expand);
      if (failed(split) || !linalg::areDimSequencesPreserved(
                               generic.getIndexingMapsArray(), *split))
        continue;
      // Every loop in a group: the split ones together, the others alone.
      SmallVector<ReassociationIndices> groups;
      const ReassociationIndices *next = split->begin();
      for (int64_t loop = 0, e = generic.getNumLoops(); loop < e; ++loop) {
        if (next != split->end() && next->front() == loop) {
          groups.push_back(*next);
          loop = next->back();
          ++next;
          continue;
        }
        groups.push_back({loop});
      }
      if (next != split->end())
        continue;
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(generic, groups, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(generic, collapsed->results);
      return success();
    }
    return rewriter.notifyMatchFailure(generic,
                                       "reads no reshaped contraction result");
  }
};

} // namespace

void populateReshapedProductPatterns(RewritePatternSet &patterns) {
  patterns.add<CollapseOverReshapedProduct>(patterns.getContext());
}

} // namespace mlir::qimeng
