//===- RecordSignatures.cpp - Memref signatures for runners ---------------===//

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGRECORDSIGNATURESPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// The argument of `func` that `value` is (a view of), or null.
BlockArgument getRootArgument(Value value, func::FuncOp func) {
  auto arg = dyn_cast_or_null<BlockArgument>(getViewRoot(value));
  return arg && arg.getOwner() == &func.getBody().front() ? arg
                                                          : BlockArgument();
}

/// Which arguments of `func` an op inside it writes to.
SmallVector<bool> findWrittenArgs(func::FuncOp func) {
  SmallVector<bool> written(func.getNumArguments(), false);
  func.walk([&](MemoryEffectOpInterface op) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    op.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects)
      if (isa<MemoryEffects::Write>(effect.getEffect()))
        if (BlockArgument arg = getRootArgument(effect.getValue(), func))
          written[arg.getArgNumber()] = true;
  });
  return written;
}

class QiMengRecordSignaturesPass
    : public impl::QiMengRecordSignaturesPassBase<QiMengRecordSignaturesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      func->setAttr("qimeng.signature", TypeAttr::get(func.getFunctionType()));
      func->setAttr("qimeng.written_args",
                    builder.getDenseBoolArrayAttr(findWrittenArgs(func)));
    }
  }
};

} // namespace
} // namespace mlir::qimeng
