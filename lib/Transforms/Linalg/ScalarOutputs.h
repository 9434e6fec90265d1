//===- ScalarOutputs.h - Kernels without a parallel loop -------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_SCALAROUTPUTS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_SCALAROUTPUTS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern for linalg ops on tensors with no parallel
/// loop: a full reduction (a loss, a norm: `tensor<f32>` out of a sum over
/// everything), its fill, arithmetic on 0-d tensors. GPU plans map parallel
/// loops to blocks and threads, so each such op gets a leading parallel loop
/// of one iteration: its outputs are expanded by a unit dimension
/// (tensor.expand_shape) and its results collapsed back. The reduction then
/// has one output, which qimeng-split-reductions splits over the GPU.
void populateScalarOutputPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_SCALAROUTPUTS_H
