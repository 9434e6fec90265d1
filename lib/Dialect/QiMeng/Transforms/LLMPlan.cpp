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
#include "QiMeng/Search/Search.h"
#include "QiMeng/Search/TunedExamples.h"
#include "QiMeng/Search/TuningDB.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
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

/// What the tuning database can show the LLM planner: the database (null
/// without one, or when it cannot be read) and the GPU it is asked about.
struct TunedExampleSource {
  std::unique_ptr<TuningDB> db;
  std::string gpu;

  /// Opens the database `option` names (TuningDB::getPath), if it exists.
  static TunedExampleSource open(llvm::StringRef option) {
    TunedExampleSource source;
    std::optional<std::string> path = TuningDB::getPath(option.str());
    if (!path || !llvm::sys::fs::exists(*path))
      return source;
    llvm::Expected<std::unique_ptr<TuningDB>> db =
        TuningDB::open(*path, /*create=*/false);
    if (!db) {
      llvm::consumeError(db.takeError());
      return source;
    }
    source.db = std::move(*db);
    if (llvm::Expected<SearchDevices> devices = findSearchDevices())
      source.gpu = devices->name;
    else
      llvm::consumeError(devices.takeError());
    return source;
  }
};

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
    unsigned maxRounds = std::max(1u, unsigned(rounds));
    // Opened once, when the LLM plans a first kernel.
    std::optional<TunedExampleSource> tuned;
    for (PlanOp plan : llvm::to_vector(module.getOps<PlanOp>())) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      nlohmann::json entry = {{"planned_by", plan.getProvenance().str()}};
      // Tuned plans (from the database or a search) are kept.
      if (client && kernel &&
          plan->hasAttr(QiMengDialect::kReplaceableAttrName)) {
        if (!tuned)
          tuned = TunedExampleSource::open(tuningDB);
        std::vector<TunedExample> examples =
            tuned->db
                ? findTunedExamples(*tuned->db, kernel, tuned->gpu, target)
                : std::vector<TunedExample>();
        if (!examples.empty())
          entry["tuned_examples"] = examples.size();
        LLMPlanResult result = planWithLLM(*client, kernel, plan, *profile,
                                           tf32, maxRounds, examples);
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
