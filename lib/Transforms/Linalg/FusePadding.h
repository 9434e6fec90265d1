//===- FusePadding.h - Padding read where a window reads it ------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_FUSEPADDING_H
#define QIMENG_LIB_TRANSFORMS_LINALG_FUSEPADDING_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds the pattern that computes a convolution's or pooling window's padded
/// input where the window reads it: an input produced by a gather (the
/// generic `tensor.pad` becomes in qimeng-prepare: no inputs, all parallel,
/// the source read by `tensor.extract` at clamped indices) is fused into the
/// window op, generalized first when it is a named op, when each output
/// reads at most 64 inputs (pooling, depthwise and few-channel windows: the
/// clamped reads cost more than the copy in larger ones). The padded copy of
/// the input is then never written.
void populateFusePaddingPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_FUSEPADDING_H
