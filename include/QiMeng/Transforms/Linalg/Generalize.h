//===- Generalize.h - Named linalg ops as generics --------------*- C++ -*-===//
//
// Shared by the passes that rewrite named linalg ops as generics
// (lib/Transforms/Linalg, qimeng-split-reductions).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRANSFORMS_LINALG_GENERALIZE_H
#define QIMENG_TRANSFORMS_LINALG_GENERALIZE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace mlir::qimeng {

/// The generic of `op` for a pattern that rewrites generics: `op` itself, or
/// the named op generalized in its place (upstream generalizeNamedOp). Sets
/// `changed` when the IR changed, so a pattern that gives up afterwards still
/// reports success (the named op is gone).
inline FailureOr<linalg::GenericOp>
getOrGeneralize(RewriterBase &rewriter, linalg::LinalgOp op, bool &changed) {
  changed = false;
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, op);
  changed = succeeded(generic);
  return generic;
}

/// A generic with other operands, maps, result types or loops than `op`
/// (its iterators unless `iterators` are given), which takes over `op`'s
/// body (block arguments as they are: the caller adds or erases them) and
/// its discardable attributes (tags). `op` is left without a body, for the
/// caller to replace.
inline linalg::GenericOp
rebuildGeneric(RewriterBase &rewriter, linalg::GenericOp op,
               TypeRange resultTypes, ValueRange inputs, ValueRange inits,
               ArrayRef<AffineMap> maps,
               std::optional<ArrayRef<utils::IteratorType>> iterators = {}) {
  SmallVector<utils::IteratorType> loops =
      iterators ? llvm::to_vector(*iterators) : op.getIteratorTypesArray();
  auto rebuilt = linalg::GenericOp::create(rewriter, op.getLoc(), resultTypes,
                                           inputs, inits, maps, loops);
  rebuilt->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Region &region = rebuilt.getRegion();
  rewriter.inlineRegionBefore(op.getRegion(), region, region.end());
  return rebuilt;
}

} // namespace mlir::qimeng

#endif // QIMENG_TRANSFORMS_LINALG_GENERALIZE_H
