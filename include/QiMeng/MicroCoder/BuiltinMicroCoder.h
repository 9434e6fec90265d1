//===- BuiltinMicroCoder.h - Actions to transform scripts -------*- C++ -*-===//
//
// The built-in micro-coder turns the macro actions of a plan into a
// transform-dialect script (a few upstream transform ops per action) that the
// transform interpreter applies to the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_MICROCODER_BUILTINMICROCODER_H
#define QIMENG_MICROCODER_BUILTINMICROCODER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::qimeng {

/// A transform script that realizes a plan, and what to check after it ran.
struct BuiltinScript {
  /// A module holding `@__transform_main`, as text.
  std::string text;
  /// The unroll actions it applies: each names a loop that must still exist.
  SmallVector<UnrollOp> unrolls;
};

/// Attribute naming the serial loops that reduction tiles make.
inline constexpr llvm::StringLiteral kLoopNameAttr = "qimeng.loop";

/// Name of the serial loop a reduction tile of `tag` makes for loop `dim`.
std::string getLoopName(llvm::StringRef tag, int64_t dim);

/// Builds the script that realizes `plan` on `kernel` (on memrefs); it is
/// applied with `kernel` as the payload root. With
/// `steps` >= 0 only the first `steps` actions are applied and nothing is
/// mapped to the GPU; with `steps` < 0 every action is applied, the loops are
/// mapped to gpu.launch and vectors are lowered to 1-D. Emits an error on the
/// offending action (or the plan) and fails when an action cannot be
/// realized.
FailureOr<BuiltinScript> buildBuiltinScript(PlanOp plan, func::FuncOp kernel,
                                            int steps);

} // namespace mlir::qimeng

#endif // QIMENG_MICROCODER_BUILTINMICROCODER_H
