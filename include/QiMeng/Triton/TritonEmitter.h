//===- TritonEmitter.h - Plans as @triton.jit kernels ----------*- C++ -*-===//
//
// Writes a kernel function on tensors, with its plan, as a Python module
// holding one `@triton.jit` kernel and a launcher on torch tensors
// (docs/triton.md): the plan's block tile becomes the BLOCK sizes, its
// threads `num_warps`, its pipeline `num_stages`.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRITON_TRITONEMITTER_H
#define QIMENG_TRITON_TRITONEMITTER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::qimeng::triton {

/// Kernels a Triton module is written for.
enum class KernelForm {
  /// Elementwise ops, reductions over some loops, and ops on their results
  /// (softmax, norms): programs own blocks of rows and loop over the rest.
  Rows,
  /// A contraction (matmul, batched, transposed operands), with elementwise
  /// producers of its operands and an elementwise epilogue.
  Matmul,
};

struct TritonModule {
  KernelForm form;
  /// The Python module's text.
  std::string source;
};

/// Writes `kernel` (a function on static-shaped tensors) and `plan` as a
/// Triton module; failure with the reason in `why` for a kernel the emitter
/// does not cover.
FailureOr<TritonModule> emitTritonModule(func::FuncOp kernel, PlanOp plan,
                                         std::string &why);

} // namespace mlir::qimeng::triton

#endif // QIMENG_TRITON_TRITONEMITTER_H
