//===- LLMPlanner.h - Plans proposed by an LLM, checked, repaired -*- C++ -*-=//
//
// Macro thinking: the LLM is told the kernel (sanitized IR, family, shapes,
// FLOPs and bytes), the target GPU, the actions and their limits (the plan's
// JSON schema), the built-in plan and an example, and answers with a plan in
// the dialect's JSON form. The reply is checked by the schema, the op
// verifiers and the resource checks; a rejected plan goes back with the
// exact errors for a bounded number of rounds, after which the built-in
// plan stays. The LLM's reply is data: it is only ever parsed as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_LLMPLANNER_H
#define QIMENG_PLANNER_LLMPLANNER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/LLM/Client.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/JSON.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace mlir::qimeng {

/// Attributes an accepted LLM plan carries besides its provenance.
inline constexpr llvm::StringLiteral kLLMRoundsAttr = "qimeng.llm_rounds";
inline constexpr llvm::StringLiteral kLLMCacheKeyAttr = "qimeng.llm_cache_key";

struct LLMPlanResult {
  /// The accepted plan (inserted after `builtinPlan`, which is erased), or
  /// null when the built-in plan stays.
  PlanOp plan;
  /// Why the built-in plan stays (when `plan` is null).
  std::string fallbackReason;
  /// One object per round: round, outcome (accepted, invalid-reply,
  /// invalid-plan, error), problems, seconds, tokens, cached, cache_key.
  nlohmann::json rounds = nlohmann::json::array();
};

/// A plan measured fastest for a similar kernel (in-context example).
struct TunedExample {
  /// One line: the kernel's loops and element types, its time and speedup.
  std::string description;
  /// The plan's JSON form.
  std::string plan;
};

/// Builds the plan of a planner reply (`reply`: its JSON, checked against
/// the plan schema) right after `builtinPlan`, with `provenance`, and checks
/// it as every LLM plan is checked: it must name `kernel`, pass the op
/// verifiers and the checks against the kernel, and fit `profile`
/// (checkPlanResources), and compute f32 matmuls as tf32 only when
/// `allowTf32` (the user's --allow-tf32). Returns the plan, or null with
/// `problems` set (sentences for the model) and nothing left in the IR.
PlanOp buildLLMPlan(const nlohmann::json &reply, func::FuncOp kernel,
                    PlanOp builtinPlan, const TargetProfile &profile,
                    bool allowTf32, llvm::StringRef provenance,
                    std::vector<std::string> &problems);

/// Asks `client` for a plan of `kernel` in up to `maxRounds` rounds; the
/// prompt shows `examples` (the tuning database's best plans of similar
/// kernels on this GPU) after the fixed example. Plans are checked as
/// buildLLMPlan checks them.
LLMPlanResult planWithLLM(llm::Client &client, func::FuncOp kernel,
                          PlanOp builtinPlan, const TargetProfile &profile,
                          bool allowTf32, unsigned maxRounds,
                          llvm::ArrayRef<TunedExample> examples = {});

/// The sampling temperature of sampleLLMPlans' requests.
inline constexpr double kLLMSampleTemperature = 0.8;

struct LLMPlanSamples {
  /// The distinct accepted plans (JSON form, provenance "llm:<model>"),
  /// none equal to the built-in plan, with the sample each came from.
  struct Sampled {
    unsigned sample;
    llvm::json::Object plan;
  };
  std::vector<Sampled> plans;
  /// One object per sample: sample, outcome (accepted, duplicate,
  /// rejected), reason, rounds (as LLMPlanResult::rounds).
  nlohmann::json records = nlohmann::json::array();
};

/// Asks `client` for `samples` plans of `kernel` (candidates for the plan
/// search): sample i at temperature kLLMSampleTemperature with seed i, each
/// checked and repaired like planWithLLM's in up to `maxRounds` rounds.
/// `builtinPlan` and the module are left as they were. Stops early when a
/// request fails for a reason other than the reply (no endpoint, no key).
LLMPlanSamples sampleLLMPlans(llm::Client &client, func::FuncOp kernel,
                              PlanOp builtinPlan, const TargetProfile &profile,
                              bool allowTf32, unsigned samples,
                              unsigned maxRounds,
                              llvm::ArrayRef<TunedExample> examples = {});

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_LLMPLANNER_H
