//===- QiMengOps.h - QiMeng ops ---------------------------------*- C++ -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_H
#define QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengEnums.h.inc"

#define GET_OP_CLASSES
#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h.inc"

namespace mlir::qimeng {
/// Returns the operation nested in `kernel` whose `qimeng.tag` is `tag`, or
/// null.
Operation *lookupTaggedOp(Operation *kernel, llvm::StringRef tag);
} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_H
