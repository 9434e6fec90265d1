//===- Windows.h - Convolutions and pooling before planning ----*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_WINDOWS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_WINDOWS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's patterns for windows (convolutions and pooling):
/// - a window whose parallel loops do not run in the order its output is
///   stored (linalg.depthwise_conv_2d_nchw_chw: (n, oh, ow, c) for an
///   (n, c, oh, ow) output) is generalized and its loops interchanged into
///   that order, so the parallel plan's threads run along the output's
///   contiguous dimension and an op that fills the output can share its
///   tiles;
/// - a window's padded input (the gather `tensor.pad` becomes: no inputs,
///   all parallel, the source read by `tensor.extract` at clamped indices) is
///   fused into the window op, generalized first when it is a named op, when
///   each output reads at most 64 inputs (pooling, depthwise and
///   few-channel windows: the clamped reads cost more than the copy in
///   larger ones). The padded copy of the input is then never written.
void populateWindowPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_WINDOWS_H
