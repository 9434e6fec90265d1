//===- ConstantInputs.h - Constant tensors read by kernels -----*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_CONSTANTINPUTS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_CONSTANTINPUTS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern that folds a splat constant tensor a
/// linalg.generic reads (torch-mlir's `dense<0.0> : tensor<f32>` of every
/// `where(cond, 0.0, x)`: LeakyReLU, ELU, HardTanh, ...) into its body as a
/// scalar. Left as an input, the constant becomes a global in host memory,
/// which the kernel would read through a host pointer.
void populateConstantInputPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_CONSTANTINPUTS_H
