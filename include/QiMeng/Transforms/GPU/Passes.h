//===- Passes.h - QiMeng GPU passes ------------------------------*- C++ -*-===//
//
// Passes after and around the GPU lowering: device allocations, managed-memory syncs, noalias kernel arguments, signatures, kernel-name and binary checks, PTX and launch dumps.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRANSFORMS_GPU_PASSES_H
#define QIMENG_TRANSFORMS_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::qimeng {

#define GEN_PASS_DECL
#include "QiMeng/Transforms/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QiMeng/Transforms/GPU/Passes.h.inc"

} // namespace mlir::qimeng

#endif // QIMENG_TRANSFORMS_GPU_PASSES_H
