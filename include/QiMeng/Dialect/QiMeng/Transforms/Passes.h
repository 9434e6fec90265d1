//===- Passes.h - QiMeng passes ---------------------------------*- C++ -*-===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::qimeng {

#define GEN_PASS_DECL
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H
