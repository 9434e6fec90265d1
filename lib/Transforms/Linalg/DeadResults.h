//===- DeadResults.h - Drop what a generic computes for nobody -*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_DEADRESULTS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_DEADRESULTS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern that drops a linalg.generic's result that
/// nothing uses, with the part of its body that only that result needs.
/// torch-mlir lowers `max(dim)` (and softmax's row maximum through it) to
/// one reduction yielding both the maximum and its index; the index is
/// usually dead, and while it stays the reduction has two outputs and no
/// row-reduction plan. Upstream's dead-result patterns keep an output whose
/// value the body reads, as the index's running value is.
void populateDeadResultPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_DEADRESULTS_H
