//===- KernelSummary.h - What a planner is told about a kernel --*- C++ -*-===//
//
// The facts an LLM planner gets: the kernel's IR, sanitized (no locations or
// file paths, no attributes but the op tags, SSA names as the printer numbers
// them, large constants elided), and per tagged op its family, loops,
// element types, FLOPs, bytes moved and arithmetic intensity.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_KERNELSUMMARY_H
#define QIMENG_PLANNER_KERNELSUMMARY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::qimeng {

/// The sanitized text of `kernel` (which is left unchanged).
std::string printSanitizedKernel(func::FuncOp kernel);

/// One paragraph per tagged linalg op of `kernel`.
std::string summarizeKernel(func::FuncOp kernel);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_KERNELSUMMARY_H
