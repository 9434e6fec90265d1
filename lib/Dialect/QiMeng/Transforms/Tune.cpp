//===- Tune.cpp - Tuned plans from the database or a measured search ------===//
//
// For each kernel the built-in planner planned: the fastest correct plan
// the tuning database holds for the kernel's fingerprint on this GPU and
// QiMeng version replaces the built-in plan; without one, and with
// --qimeng-search=N, a search measures up to N candidates on the GPU
// (with an LLM configured, plans sampled from the LLM planner among them),
// stores them all and takes the fastest correct one (lib/Search).
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Planner/Fingerprint.h"
#include "QiMeng/Planner/LLMPlanner.h"
#include "QiMeng/Search/Search.h"
#include "QiMeng/Search/TunedExamples.h"
#include "QiMeng/Search/TuningDB.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ScopedPrinter.h"

#include <chrono>
#include <ctime>

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGTUNEPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// The current UTC time, ISO 8601.
std::string now() {
  std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

/// Replaces `plan` by the plan of `json` with provenance `provenance`;
/// null when it does not build (the old plan then stays).
PlanOp replacePlan(PlanOp plan, const llvm::json::Value &json,
                   llvm::StringRef provenance, std::string &why) {
  const llvm::json::Object *stored = json.getAsObject();
  if (!stored) {
    why = "the stored plan is not a JSON object";
    return nullptr;
  }
  llvm::json::Object object = *stored;
  object["provenance"] = provenance;
  object["kernel"] = plan.getKernel();
  OpBuilder builder(plan);
  ErrorCollector errors(plan.getContext());
  FailureOr<PlanOp> built = planFromJSON(builder, plan.getLoc(),
                                         llvm::json::Value(std::move(object)));
  if (failed(built)) {
    why = errors.first();
    return nullptr;
  }
  plan->erase();
  return *built;
}

class QiMengTunePass : public impl::QiMengTunePassBase<QiMengTunePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (searchBudgetSeconds < 0) {
      module.emitError() << "--qimeng-search-budget must not be negative";
      return signalPassFailure();
    }
    SmallVector<PlanOp> plans;
    for (PlanOp plan : module.getOps<PlanOp>())
      if (plan->hasAttr(QiMengDialect::kReplaceableAttrName))
        plans.push_back(plan);
    bool searching = searchCandidates > 0;
    std::optional<std::string> dbPath = TuningDB::getPath(tuningDB);
    if (plans.empty() || !dbPath)
      return;
    std::string path = *dbPath;
    // Without a search the database is only read, and only if it exists.
    if (!searching && !llvm::sys::fs::exists(path))
      return;
    std::optional<TargetProfile> profile = lookupTargetProfile(target, module);
    if (!profile)
      return signalPassFailure();

    llvm::Expected<std::unique_ptr<TuningDB>> db =
        TuningDB::open(path, /*create=*/searching);
    if (!db) {
      // A broken cache must not break compiles that only read it.
      std::string message = llvm::toString(db.takeError());
      if (searching) {
        module.emitError() << message;
        return signalPassFailure();
      }
      module.emitWarning() << message << "; compiling without tuned plans";
      return;
    }
    // The GPU: the first visible one; without one, any GPU of the target.
    std::optional<SearchDevices> devices;
    std::string noGpu;
    if (llvm::Expected<SearchDevices> found = findSearchDevices())
      devices = std::move(*found);
    else
      noGpu = llvm::toString(found.takeError());

    for (PlanOp plan : plans) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      if (!kernel)
        continue;
      // Plans tuned with tf32 allowed are kept apart from f32 ones.
      TuningKey key{getKernelFingerprint(kernel), devices ? devices->name : "",
                    tf32 ? target + "+tf32" : target, getQiMengVersion().str()};
      if (failed(tuneKernel(module, plan, kernel, key, **db, *profile, devices,
                            noGpu)))
        return signalPassFailure();
    }
  }

private:
  LogicalResult tuneKernel(ModuleOp module, PlanOp plan, func::FuncOp kernel,
                           const TuningKey &key, TuningDB &db,
                           const TargetProfile &profile,
                           const std::optional<SearchDevices> &devices,
                           const std::string &noGpu) {
    CompileSession &session = CompileSession::get();
    StringRef name = kernel.getSymName();
    nlohmann::json report = {{"fingerprint", key.fingerprint},
                             {"gpu", key.gpu.empty() ? "any" : key.gpu},
                             {"chip", key.chip},
                             {"version", key.version},
                             {"database", db.getPath()}};
    auto record = [&] {
      std::lock_guard<std::mutex> lock(session.getMutex());
      session.kernelReport(name)["tuning"] = report;
    };

    llvm::Expected<std::optional<TuningRecord>> stored = db.findBest(key);
    if (!stored) {
      // A broken cache must not break compiles that only read it.
      std::string message = llvm::toString(stored.takeError());
      if (searchCandidates > 0) {
        kernel.emitError() << message;
        return failure();
      }
      kernel.emitWarning() << message << "; compiling without tuned plans";
      return success();
    }
    if (*stored) {
      const TuningRecord &best = **stored;
      std::string why;
      if (replacePlan(plan, best.plan, "tuned", why)) {
        report["source"] = "database";
        report["time_ms"] = *best.timeMs;
        report["speedup"] = best.getSpeedup();
        report["measured_on"] = best.key.gpu;
        report["measured_at"] = best.measuredAt;
        record();
        session.progress(llvm::formatv(
            "@{0}: tuned plan from the tuning database ({1:F4} ms on {2}, "
            "{3:F2}x over the default plan); no search, no LLM",
            name, *best.timeMs, best.key.gpu, best.getSpeedup()));
        return success();
      }
      // A stored plan this compiler no longer accepts: plan afresh.
      report["stale_plan"] = why;
      session.progress("@" + name +
                       ": the stored tuned plan no longer verifies (" + why +
                       "); ignoring it");
    }
    if (searchCandidates == 0) {
      report["source"] = "none";
      record();
      return success();
    }
    if (!devices) {
      kernel.emitError() << "--qimeng-search needs a GPU to time candidates "
                            "on: "
                         << noGpu;
      return failure();
    }

    SearchOptions searchOptions;
    // With an LLM: its sampled plans are candidates too, measured first.
    llm::Client *client = session.getClient();
    if (client && searchLLMSamples > 0 && searchCandidates > 1) {
      std::vector<TunedExample> examples =
          findTunedExamples(db, kernel, key.gpu, key.chip);
      LLMPlanSamples samples =
          sampleLLMPlans(*client, kernel, plan, profile, tf32, searchLLMSamples,
                         std::max(1u, unsigned(planRounds)), examples);
      report["llm_samples"] = samples.records;
      if (!examples.empty())
        report["tuned_examples"] = examples.size();
      for (LLMPlanSamples::Sampled &sampled : samples.plans)
        searchOptions.proposed.push_back(
            {std::move(sampled.plan), "llm",
             "llm sample " + std::to_string(sampled.sample), 1});
      session.progress(
          llvm::formatv("@{0}: search: {1} distinct plans from {2} LLM samples",
                        name, samples.plans.size(), searchLLMSamples));
    }
    searchOptions.maxCandidates = searchCandidates;
    searchOptions.budgetSeconds = searchBudgetSeconds;
    searchOptions.seed = searchSeed;
    searchOptions.finalTrials = trials;
    searchOptions.chip = target;
    searchOptions.devices = devices->ordinals;
    searchOptions.progress = [&](const Twine &line) {
      session.progress("@" + name + ": search: " + line);
    };
    SearchResult result =
        searchPlans(module, plan, kernel, profile, searchOptions);
    if (!result.failure.empty()) {
      // The built-in plan is what the compile would use anyway.
      kernel.emitWarning() << "no plan search for @" << name << ": "
                           << result.failure << "; keeping the built-in plan";
      report["source"] = "none";
      report["search_failure"] = result.failure;
      record();
      return success();
    }
    auto [family, features] = describeKernel(kernel);
    std::vector<TuningRecord> records;
    std::string measuredAt = now();
    nlohmann::json candidates = nlohmann::json::array();
    for (const MeasuredCandidate &m : result.measured) {
      nlohmann::json entry = {{"source", m.candidate.source},
                              {"moves", m.candidate.moves},
                              {"verdict", m.verdict},
                              {"reward", m.reward.total()}};
      if (m.timeMs)
        entry["time_ms"] = *m.timeMs;
      entry["compile_s"] = m.compileSeconds;
      entry["measure_s"] = m.measureSeconds;
      for (const auto &[phase, seconds] : m.phaseSeconds)
        entry["phase_s"][phase] = seconds;
      if (!m.reason.empty())
        entry["reason"] = m.reason;
      candidates.push_back(entry);
      if (m.verdict == "skipped" || m.verdict == "could-not-run")
        continue;
      TuningRecord r;
      r.key = key;
      r.kernel = name.str();
      r.family = family;
      r.features = features;
      r.plan = llvm::json::Object(m.candidate.plan);
      r.source = m.candidate.source;
      r.compiled = m.compiled;
      r.correct = m.correct;
      r.timeMs = m.timeMs;
      r.defaultMs = result.defaultMs;
      r.reward = m.reward;
      r.verdict = m.verdict;
      r.reason = m.reason;
      r.measuredAt = measuredAt;
      records.push_back(std::move(r));
    }
    llvm::Expected<unsigned> stored2 = db.insert(records);
    if (!stored2) {
      kernel.emitError() << llvm::toString(stored2.takeError());
      return failure();
    }
    const MeasuredCandidate &best = result.measured[result.best];
    report["source"] = "search";
    report["candidates"] = candidates;
    report["generated"] = result.generated;
    report["illegal"] = result.illegal;
    report["pruned"] = result.pruned;
    report["proposed"] = result.proposed;
    size_t measured = result.measured.size() - result.skipped;
    report["skipped"] = result.skipped;
    report["measured"] = measured;
    report["seconds"] = result.seconds;
    report["compile_phase_s"] = result.compileSeconds;
    report["default_ms"] = *result.defaultMs;
    report["time_ms"] = *best.timeMs;
    report["speedup"] = *result.defaultMs / *best.timeMs;
    report["best"] =
        best.candidate.moves.empty() ? "default" : best.candidate.moves;
    // The measured winner is "tuned" even when it is the default plan, so
    // the LLM planner does not replace it unmeasured.
    if (result.best == 0) {
      plan.setProvenance("tuned");
    } else {
      std::string why;
      if (!replacePlan(
              plan, llvm::json::Value(llvm::json::Object(best.candidate.plan)),
              "tuned", why)) {
        kernel.emitError() << "the searched plan does not build: " << why;
        return failure();
      }
    }
    record();
    session.progress(llvm::formatv(
        "@{0}: search done in {1:F1} s: {2} measured, best {3:F4} ms "
        "({4:F2}x over the default plan{5}); {6} records stored",
        name, result.seconds, measured, *best.timeMs,
        *result.defaultMs / *best.timeMs,
        result.best > 0 ? ": " + best.candidate.moves : std::string(),
        *stored2));
    return success();
  }
};

} // namespace
} // namespace mlir::qimeng
