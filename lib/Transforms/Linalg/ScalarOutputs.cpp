//===- ScalarOutputs.cpp - Kernels without a parallel loop ----------------===//

#include "ScalarOutputs.h"

#include "QiMeng/Transforms/Linalg/Generalize.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::qimeng {
namespace {

/// The map of an output over the loops with the new one first: the new
/// loop walks the new leading unit dimension.
AffineMap getExpandedOutputMap(AffineMap map) {
  SmallVector<AffineExpr> results{getAffineDimExpr(0, map.getContext())};
  llvm::append_range(results, map.shiftDims(1).getResults());
  return AffineMap::get(map.getNumDims() + 1, 0, results, map.getContext());
}

/// The reassociation that adds a leading unit dimension to a tensor of
/// `rank`: the new dimension joins the first one (or stands alone at rank 0).
SmallVector<ReassociationIndices> getLeadingUnitGroups(int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    groups.push_back(d == 0 ? ReassociationIndices{0, 1}
                            : ReassociationIndices{d + 1});
  return groups;
}

struct AddUnitParallelLoop
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
        op.getNumParallelLoops() != 0)
      return rewriter.notifyMatchFailure(op, "has a parallel loop");
    bool changed = false;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, op, changed);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    linalg::GenericOp old = *generic;
    Location loc = old.getLoc();
    rewriter.setInsertionPoint(old);

    // Inputs keep their shape and read no new loop; outputs get the unit
    // dimension first, walked by the new loop.
    SmallVector<AffineMap> maps;
    for (OpOperand *input : old.getDpsInputOperands())
      maps.push_back(old.getMatchingIndexingMap(input).shiftDims(1));
    SmallVector<Value> inits;
    SmallVector<Type> types;
    for (OpOperand &init : old.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      SmallVector<int64_t> shape{1};
      llvm::append_range(shape, type.getShape());
      auto expandedType = type.clone(shape);
      // A 0-d tensor expands with no groups; else the unit joins dim 0.
      Value expanded =
          tensor::ExpandShapeOp::create(rewriter, loc, expandedType, init.get(),
                                        getLeadingUnitGroups(type.getRank()));
      inits.push_back(expanded);
      types.push_back(expandedType);
      maps.push_back(getExpandedOutputMap(old.getMatchingIndexingMap(&init)));
    }
    SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
    llvm::append_range(iterators, old.getIteratorTypesArray());
    linalg::GenericOp rebuilt = rebuildGeneric(
        rewriter, old, types, old.getDpsInputs(), inits, maps, iterators);
    // linalg.index of loop i is now loop i + 1.
    rebuilt.getRegion().walk([&](linalg::IndexOp index) {
      rewriter.modifyOpInPlace(index,
                               [&] { index.setDim(index.getDim() + 1); });
    });
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(rebuilt.getResults(), old.getResultTypes())) {
      auto tensorType = cast<RankedTensorType>(type);
      results.push_back(tensor::CollapseShapeOp::create(
          rewriter, loc, tensorType, result,
          getLeadingUnitGroups(tensorType.getRank())));
    }
    rewriter.replaceOp(old, results);
    return success();
  }
};

} // namespace

void populateScalarOutputPatterns(RewritePatternSet &patterns) {
  patterns.add<AddUnitParallelLoop>(patterns.getContext());
}

} // namespace mlir::qimeng
