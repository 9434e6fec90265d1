//===- ImportPlanJSON.cpp - Read plans from JSON --------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGIMPORTPLANJSONPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {
class QiMengImportPlanJSONPass
    : public impl::QiMengImportPlanJSONPassBase<QiMengImportPlanJSONPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (input.empty()) {
      module.emitError() << "qimeng-import-plan-json needs input=<file>";
      return signalPassFailure();
    }
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(input, &error);
    if (!buffer) {
      module.emitError() << "cannot read plan JSON: " << error;
      return signalPassFailure();
    }
    Location loc = FileLineColLoc::get(&getContext(), input, 1, 1);
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse(buffer->getBuffer());
    if (!json) {
      emitError(loc) << "plan is not valid JSON: "
                     << llvm::toString(json.takeError());
      return signalPassFailure();
    }
    SmallVector<const llvm::json::Value *> plans;
    if (const llvm::json::Array *array = json->getAsArray())
      for (const llvm::json::Value &plan : *array)
        plans.push_back(&plan);
    else
      plans.push_back(&*json);

    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    for (const llvm::json::Value *json : plans) {
      FailureOr<PlanOp> plan = planFromJSON(builder, loc, *json);
      if (failed(plan))
        return signalPassFailure();
      // The new plan replaces any older plan for the same kernel.
      for (PlanOp old : llvm::make_early_inc_range(module.getOps<PlanOp>()))
        if (old != *plan && old.getKernel() == plan->getKernel())
          old->erase();
    }
  }
};
} // namespace
} // namespace mlir::qimeng
