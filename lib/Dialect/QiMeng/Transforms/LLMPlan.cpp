//===- LLMPlan.cpp - Plans from the configured LLM ------------------------===//
//
// Replaces each built-in plan by one the LLM proposes, when an LLM is
// configured and its plan passes every check (lib/Planner/LLMPlanner.cpp);
// records each kernel's final plan in the compile report.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Planner/LLMPlanner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/ScopedPrinter.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGLLMPLANPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// `plan`'s JSON form as nlohmann JSON, for the report.
nlohmann::json planJSON(PlanOp plan) {
  return nlohmann::json::parse(
      llvm::to_string(llvm::json::Value(planToJSON(plan))), nullptr, false);
}

class QiMengLLMPlanPass
    : public impl::QiMengLLMPlanPassBase<QiMengLLMPlanPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CompileSession &session = CompileSession::get();
    if (!session.getLLMError().empty()) {
      module.emitError() << "the LLM configuration cannot be used: "
                         << session.getLLMError();
      return signalPassFailure();
    }
    std::optional<TargetProfile> profile = lookupTargetProfile(target, module);
    if (!profile)
      return signalPassFailure();
    llm::Client *client = session.getClient();
    unsigned maxRounds =
        rounds ? unsigned(rounds) : session.getOptions().planRounds;
    for (PlanOp plan : llvm::to_vector(module.getOps<PlanOp>())) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      nlohmann::json entry = {{"planned_by", plan.getProvenance().str()}};
      if (client && kernel && session.hasBuiltinPlan(plan.getKernel())) {
        LLMPlanResult result =
            planWithLLM(*client, kernel, plan, *profile, maxRounds);
        entry["llm_rounds"] = result.rounds;
        if (result.plan) {
          plan = result.plan;
          entry["planned_by"] = plan.getProvenance().str();
          session.progress("@" + kernel.getSymName() + ": plan from " +
                           plan.getProvenance() + " (round " +
                           llvm::Twine(result.rounds.size()) + ")");
        } else {
          entry["fallback"] = result.fallbackReason;
          session.progress("@" + kernel.getSymName() +
                           ": no usable LLM plan (" + result.fallbackReason +
                           "); using the built-in plan");
        }
      }
      entry["plan"] = planJSON(plan);
      std::lock_guard<std::mutex> lock(session.getMutex());
      nlohmann::json &report = session.kernelReport(plan.getKernel());
      for (auto &[key, value] : entry.items())
        report[key] = value;
    }
  }
};

} // namespace
} // namespace mlir::qimeng
