//===- QiMengTransformOps.h - QiMeng transform ops --------------*- C++ -*-===//
//
// The `transform.qimeng.*` extension of the transform dialect: the steps of
// the built-in micro-coder that upstream has no transform op for.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::qimeng {

/// Registers the `transform.qimeng.*` operations with the transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_H
