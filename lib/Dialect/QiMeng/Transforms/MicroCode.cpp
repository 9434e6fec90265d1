//===- MicroCode.cpp - Realize plans step by step, each step verified -----===//
//
// Drives lib/MicroCoder/LLMMicroCoder.cpp over every plan of the module and
// records each kernel's steps in the compile report.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/MicroCoder/LLMMicroCoder.h"
#include "QiMeng/Planner/CompileSession.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGMICROCODEPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

class QiMengMicroCodePass
    : public impl::QiMengMicroCodePassBase<QiMengMicroCodePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CompileSession &session = CompileSession::get();
    MicroCodeOptions options;
    options.client = session.getClient();
    options.rounds = std::max(1u, unsigned(rounds));
    options.trials = trials;
    options.requireGpuVerification = requireGpuVerification;
    options.allowUnverified = allowUnverified;
    options.progress = [&](const Twine &line) { session.progress(line); };
    for (PlanOp plan : llvm::to_vector(module.getOps<PlanOp>())) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      if (!kernel) {
        plan.emitOpError() << "kernel @" << plan.getKernel()
                           << " is not a func.func of this module";
        return signalPassFailure();
      }
      for (Value arg : kernel.getArguments())
        if (isa<TensorType>(arg.getType())) {
          plan.emitOpError()
              << "kernel @" << plan.getKernel()
              << " is on tensors; bufferize it first (--llm-plan does)";
          return signalPassFailure();
        }
      nlohmann::json report = {
          {"micro_coder", options.client ? "llm" : "builtin"}};
      LogicalResult result =
          microCodeKernel(module, plan, kernel, options, report);
      {
        std::lock_guard<std::mutex> lock(session.getMutex());
        session.kernelReport(plan.getKernel())["micro_coding"] = report;
      }
      if (failed(result))
        return signalPassFailure();
      plan->erase();
    }
  }
};

} // namespace
} // namespace mlir::qimeng
