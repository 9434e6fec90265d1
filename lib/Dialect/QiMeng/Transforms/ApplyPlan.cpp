//===- ApplyPlan.cpp - Realize plans with the built-in micro-coder --------===//
//
// Realizes every qimeng.plan with the built-in micro-coder
// (lib/MicroCoder/Realize.cpp), in plan order, and consumes the plans.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/MicroCoder/Realize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGAPPLYPLANPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

class QiMengApplyPlanPass
    : public impl::QiMengApplyPlanPassBase<QiMengApplyPlanPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Plans are realized at the top level of the module only.
    WalkResult nested = module.walk([&](PlanOp plan) {
      if (plan->getParentOp() == module.getOperation())
        return WalkResult::advance();
      plan.emitOpError() << "must be at the top level of the module to be "
                            "realized";
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return signalPassFailure();
    for (PlanOp plan : llvm::to_vector(module.getOps<PlanOp>())) {
      if (failed(apply(module, plan)))
        return signalPassFailure();
      plan->erase();
    }
  }

private:
  LogicalResult apply(ModuleOp module, PlanOp plan) {
    auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
    if (!kernel)
      return plan.emitOpError() << "kernel @" << plan.getKernel()
                                << " is not a func.func of this module";
    return realizePlan(plan, kernel, steps);
  }
};

} // namespace
} // namespace mlir::qimeng
