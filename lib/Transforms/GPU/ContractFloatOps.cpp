//===- ContractFloatOps.cpp - Multiplies and adds that may fuse into FMAs -===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGCONTRACTFLOATOPSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

class QiMengContractFloatOpsPass
    : public impl::QiMengContractFloatOpsPassBase<QiMengContractFloatOpsPass> {
public:
  void runOnOperation() override {
    // Kernels reach this step partly lowered: arith ops, or LLVM's.
    getOperation().walk([](Operation *op) {
      MLIRContext *ctx = op->getContext();
      if (isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op)) {
        auto fastMath = cast<arith::ArithFastMathInterface>(op);
        arith::FastMathFlags flags = fastMath.getFastMathFlagsAttr().getValue();
        op->setAttr(fastMath.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(
                        ctx, flags | arith::FastMathFlags::contract));
      } else if (isa<LLVM::FMulOp, LLVM::FAddOp, LLVM::FSubOp>(op)) {
        auto fastMath = cast<LLVM::FastmathFlagsInterface>(op);
        LLVM::FastmathFlags flags = fastMath.getFastmathAttr().getValue();
        op->setAttr(fastMath.getFastmathAttrName(),
                    LLVM::FastmathFlagsAttr::get(
                        ctx, flags | LLVM::FastmathFlags::contract));
      }
    });
  }
};

} // namespace
} // namespace mlir::qimeng
