//===- ReshapedProducts.h - Consumers of reshaped products -----*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_RESHAPEDPRODUCTS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_RESHAPEDPRODUCTS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern that runs an elementwise generic over a
/// contraction's result the way the contraction has it when the generic
/// reads that result through a `tensor.expand_shape` (an im2col
/// convolution's output split back into rows and columns; a Linear over a
/// batch of sequences that torch-mlir runs as one 2-D matmul and expands):
/// the loops the reshape split are collapsed into one (upstream
/// linalg::collapseOpIterationDims) and the generic's results are expanded
/// after it. The product and its consumer then share a shape, and the
/// planner can fuse the consumer (a bias, an activation) into the
/// contraction's kernel.
void populateReshapedProductPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_RESHAPEDPRODUCTS_H
