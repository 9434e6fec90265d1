//===- Generalize.h - Named linalg ops as generics --------------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_GENERALIZE_H
#define QIMENG_LIB_TRANSFORMS_LINALG_GENERALIZE_H

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

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_GENERALIZE_H
