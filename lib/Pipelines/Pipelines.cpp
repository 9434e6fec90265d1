//===- Pipelines.cpp - QiMeng's top-level pipelines -----------------------===//

#include "QiMeng/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
/// Stands for a pipeline stage that does not exist yet: it fails with a clear
/// message instead of silently doing nothing.
class UnimplementedStagePass
    : public PassWrapper<UnimplementedStagePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnimplementedStagePass)

  explicit UnimplementedStagePass(std::string stage) : stage(std::move(stage)) {}
  StringRef getArgument() const override { return "qimeng-unimplemented"; }

  void runOnOperation() override {
    getOperation().emitError()
        << "QiMeng stage '" << stage
        << "' is not implemented yet in this build";
    signalPassFailure();
  }

private:
  std::string stage;
};
} // namespace

void mlir::qimeng::registerPipelines() {
  PassPipelineRegistration<>(
      "llm-plan",
      "Plan every kernel (LLM planner when an endpoint is configured, the "
      "built-in planner otherwise) and realize the plan",
      [](OpPassManager &pm) {
        pm.addPass(std::make_unique<UnimplementedStagePass>("--llm-plan"));
      });
  PassPipelineRegistration<>(
      "lower-to-nvvm",
      "Map to gpu.launch, outline kernels, lower to NVVM and serialize PTX",
      [](OpPassManager &pm) {
        pm.addPass(std::make_unique<UnimplementedStagePass>("--lower-to-nvvm"));
      });
}
