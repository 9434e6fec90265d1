//===- QiMengDialect.h - QiMeng dialect -------------------------*- C++ -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_H
#define QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_H

#include "mlir/IR/Dialect.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h.inc"

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_H
