//===- KernelAsserts.h - Assertions inside kernel bodies -------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_KERNELASSERTS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_KERNELASSERTS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's pattern that drops a cf.assert inside a linalg
/// op's body. torch-mlir guards divisions with one (batch norm's
/// 1 / sqrt(var + eps): "unimplemented: tensor with zero element"); a GPU
/// kernel cannot stop the program (nor can a vectorized body keep a
/// per-element branch), and PyTorch itself computes the same values without
/// the guard (inf or nan where it would have fired). Assertions on the host
/// (shape checks between kernels) stay.
void populateKernelAssertPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_KERNELASSERTS_H
