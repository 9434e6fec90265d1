//===- Realize.h - Realize a plan with the built-in micro-coder -*- C++ -*-===//

#ifndef QIMENG_MICROCODER_REALIZE_H
#define QIMENG_MICROCODER_REALIZE_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::qimeng {

/// Applies the actions of `plan` to `kernel` (on memrefs) with MLIR's own
/// transformations. With `steps` >= 0 only the first `steps` actions are
/// applied and nothing is mapped to the GPU; with `steps` < 0 every action
/// is applied, the loops are mapped to gpu.launch and everything must end
/// up inside a launch. Errors are emitted on the failing action (or the
/// plan). The plan is left in place.
LogicalResult realizePlan(PlanOp plan, func::FuncOp kernel, int steps);

} // namespace mlir::qimeng

#endif // QIMENG_MICROCODER_REALIZE_H
