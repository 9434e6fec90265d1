//===- NoAliasKernelArgs.cpp - Distinct buffers of a launch ---------------===//
//
// A kernel's buffers reach it as plain pointers, so LLVM must assume that a
// store through the output may change an input: a convolution that
// accumulates into its output stores after every multiply-add. Buffers of a
// launch that come from distinct allocations (function arguments count as
// distinct, as bufferization assumes) are marked `llvm.noalias` on the
// kernel, which lets LLVM keep such accumulators in registers.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGNOALIASKERNELARGSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// The allocation (or block argument) a memref is a view of, or null when it
/// comes from something else (a load of a memref, a call).
Value getRootBuffer(Value value) {
  Value root = getViewRoot(value);
  Operation *def = root.getDefiningOp();
  return !def || isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp,
                     memref::GetGlobalOp>(def)
             ? root
             : Value();
}

/// Discardable attribute of a kernel: the positions, among the arguments of
/// its LLVM function, of the aligned pointers of its distinct buffers. The
/// GPU-to-NVVM lowering expands each memref into (allocated pointer, aligned
/// pointer, offset, sizes, strides) and drops memref argument attributes, so
/// the pass runs twice: on gpu.func kernels (record the positions) and on
/// their LLVM functions (mark those arguments noalias).
constexpr llvm::StringLiteral kNoAliasArgsAttr = "qimeng.noalias_args";

/// Records the positions of the distinct buffers of `kernel`, launched once
/// by `launch`.
void recordDistinctBuffers(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel) {
  SmallVector<Value> roots;
  for (Value operand : launch.getKernelOperands())
    roots.push_back(isa<MemRefType>(operand.getType()) ? getRootBuffer(operand)
                                                       : Value());
  SmallVector<int64_t> positions;
  int64_t position = 0;
  for (auto [i, argument] : llvm::enumerate(kernel.getArguments())) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    if (!type) {
      ++position;
      continue;
    }
    if (i < roots.size() && roots[i] && llvm::count(roots, roots[i]) == 1)
      positions.push_back(position + 1);
    position += 3 + 2 * type.getRank();
  }
  if (!positions.empty())
    kernel->setAttr(kNoAliasArgsAttr,
                    DenseI64ArrayAttr::get(kernel.getContext(), positions));
}

class QiMengNoAliasKernelArgsPass
    : public impl::QiMengNoAliasKernelArgsPassBase<
          QiMengNoAliasKernelArgsPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    // Launches per kernel: a kernel launched more than once is left alone.
    llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (Operation *kernel =
              symbols.lookupNearestSymbolFrom(launch, launch.getKernel()))
        launches[kernel].push_back(launch);
    });
    module.walk([&](gpu::GPUFuncOp kernel) {
      auto found = launches.find(kernel);
      if (found != launches.end() && found->second.size() == 1 &&
          !kernel->hasAttr(kNoAliasArgsAttr))
        recordDistinctBuffers(found->second.front(), kernel);
    });
    module.walk([&](LLVM::LLVMFuncOp func) {
      auto positions = func->getAttrOfType<DenseI64ArrayAttr>(kNoAliasArgsAttr);
      if (!positions)
        return;
      for (int64_t position : positions.asArrayRef())
        if (position < func.getNumArguments() &&
            isa<LLVM::LLVMPointerType>(func.getArgument(position).getType()))
          func.setArgAttr(position, LLVM::LLVMDialect::getNoAliasAttrName(),
                          UnitAttr::get(&getContext()));
      func->removeAttr(kNoAliasArgsAttr);
    });
  }
};

} // namespace
} // namespace mlir::qimeng
