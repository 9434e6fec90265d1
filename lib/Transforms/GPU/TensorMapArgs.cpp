//===- TensorMapArgs.cpp - TMA descriptors into kernels as pointers -------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGTENSORMAPARGSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

class QiMengTensorMapArgsPass
    : public impl::QiMengTensorMapArgsPassBase<QiMengTensorMapArgsPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto pointer = LLVM::LLVMPointerType::get(&getContext());
    OpBuilder b(&getContext());
    // The kernels' signatures.
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      Block &entry = kernel.getBody().front();
      b.setInsertionPointToStart(&entry);
      SmallVector<Type> inputs(kernel.getArgumentTypes());
      bool changed = false;
      for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
        if (!isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
          continue;
        Type descriptor = arg.getType();
        arg.setType(pointer);
        auto cast = UnrealizedConversionCastOp::create(b, kernel.getLoc(),
                                                       descriptor, arg);
        arg.replaceAllUsesExcept(cast.getResult(0), cast);
        inputs[i] = pointer;
        changed = true;
      }
      if (changed)
        kernel.setFunctionType(
            b.getFunctionType(inputs, kernel.getFunctionType().getResults()));
    });
    // The launches' operands.
    module.walk([&](gpu::LaunchFuncOp launch) {
      b.setInsertionPoint(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable())
        if (isa<nvgpu::TensorMapDescriptorType>(operand.get().getType()))
          operand.set(UnrealizedConversionCastOp::create(
                          b, launch.getLoc(), pointer, operand.get())
                          .getResult(0));
    });
  }
};

} // namespace
} // namespace mlir::qimeng
