//===- SharedInits.h - One fill per kernel that starts from it -*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_SHAREDINITS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_SHAREDINITS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern that gives each user of a linalg.fill on
/// tensors its own copy of the fill. CSE leaves one fill for every
/// reduction with the same init (torch-mlir's output: the two distances of
/// a triplet loss start from one zero fill); each reduction's plan fuses its
/// fill into its kernel, which a fill shared with another kernel cannot be.
void populateSharedInitPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_SHAREDINITS_H
