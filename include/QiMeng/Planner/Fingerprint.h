//===- Fingerprint.h - A stable key of a kernel -----------------*- C++ -*-===//
//
// The key under which tuned plans of a kernel are remembered: it survives
// what does not change the computation (SSA value names, locations, the
// function's name, QiMeng's tags) and changes with anything that does (an
// op, a shape, an element type, an attribute, the order of the ops).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_FINGERPRINT_H
#define QIMENG_PLANNER_FINGERPRINT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::qimeng {

/// The canonical text of `func`: its signature and body in MLIR's generic
/// form, without locations, with the function renamed `@kernel` and
/// `qimeng.tag` attributes left out.
std::string getKernelCanonicalForm(func::FuncOp func);

/// The SHA-256 (64 hex digits) of getKernelCanonicalForm(func).
std::string getKernelFingerprint(func::FuncOp func);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_FINGERPRINT_H
