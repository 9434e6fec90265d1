//===- Passes.h - QiMeng passes ---------------------------------*- C++ -*-===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::qimeng {

#define GEN_PASS_DECL
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_H
