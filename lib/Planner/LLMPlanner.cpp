//===- LLMPlanner.cpp - Plans proposed by an LLM, checked, repaired -------===//

#include "QiMeng/Planner/LLMPlanner.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/LLM/Prompts.h"
#include "QiMeng/Planner/KernelSummary.h"
#include "QiMeng/Planner/PlanResources.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Support/JSONText.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::qimeng;

/// `value` as pretty-printed text.
static std::string printJSON(const llvm::json::Value &value) {
  return llvm::formatv("{0:2}", value).str();
}

static std::string describeTarget(const TargetProfile &p) {
  return llvm::formatv(
      "{0}: {1} SMs, {2} threads per block at most, {3} bytes of static "
      "shared memory per block ({4} per SM), {5} registers per SM, {6} MiB "
      "of L2, warps of {7}",
      p.chip, p.numSMs, p.maxThreadsPerBlock, p.sharedMemPerBlock,
      p.sharedMemPerSM, p.registersPerSM, p.l2Bytes >> 20, p.warpSize);
}

/// The message that sends a rejected plan back.
static std::string rejection(const std::vector<std::string> &problems) {
  std::string text = "The plan was rejected:\n";
  for (const std::string &problem : problems)
    text += "- " + problem + "\n";
  return text + "Reply with a corrected plan (the whole JSON object).";
}

/// The prompt's section of tuned examples; empty without any, so the
/// prompt is then exactly what it was before tuning existed.
static std::string formatExamples(ArrayRef<TunedExample> examples) {
  if (examples.empty())
    return "";
  std::string text = "\n\n## Plans measured fastest on this GPU for similar "
                     "kernels (from QiMeng's tuning database)";
  for (const TunedExample &example : examples)
    text += "\n" + example.description + "\n```json\n" + example.plan + "\n```";
  return text;
}

PlanOp mlir::qimeng::buildLLMPlan(const nlohmann::json &reply,
                                  func::FuncOp kernel, PlanOp builtinPlan,
                                  const TargetProfile &profile, bool allowTf32,
                                  llvm::StringRef provenance,
                                  std::vector<std::string> &problems) {
  problems.clear();
  MLIRContext *context = kernel.getContext();
  // The schema makes it an object with a string "kernel"; checked again
  // here, so a reply is never trusted to have followed it.
  auto named = reply.is_object() ? reply.find("kernel") : reply.end();
  if (named == reply.end() || !named->is_string()) {
    problems.push_back("the plan is not a JSON object with a string "
                       "\"kernel\"");
    return nullptr;
  }
  const std::string &planned = named->get_ref<const std::string &>();
  if (planned != kernel.getSymName()) {
    problems.push_back(
        llvm::formatv("the plan is for kernel '{0}', but this kernel is '{1}'",
                      planned, kernel.getSymName()));
    return nullptr;
  }
  // The provenance is QiMeng's to say, not the model's.
  nlohmann::json json = reply;
  json["provenance"] = provenance.str();
  PlanOp plan;
  {
    // The op verifiers and the checks against the kernel run on it, their
    // errors collected.
    ErrorCollector errors(context);
    OpBuilder builder(context);
    builder.setInsertionPointAfter(builtinPlan);
    FailureOr<PlanOp> built =
        planFromJSONText(builder, builtinPlan.getLoc(), dumpJSON(json));
    if (failed(built)) {
      problems = errors.getErrors();
      if (problems.empty())
        problems.push_back("the plan does not verify");
      return nullptr;
    }
    plan = *built;
  }
  problems = checkPlanResources(plan, kernel, profile);
  // tf32 trades precision away: only the user may ask for it.
  if (!allowTf32)
    plan.walk([&](MmaOp mma) {
      if (mma.getAType() == MmaType::tf32 || mma.getBType() == MmaType::tf32)
        problems.push_back(llvm::formatv(
            "the mma of '{0}' computes f32 as tf32, which the user did not "
            "allow (--allow-tf32); keep f32 matmuls off the tensor cores",
            mma.getTarget()));
    });
  if (!problems.empty()) {
    plan->erase();
    return nullptr;
  }
  return plan;
}

/// The LLM's plan for `kernel`, built after `builtinPlan` (which stays), in
/// up to `maxRounds` rounds; `sample` set: one of several samples, asked
/// for at a sampling temperature with this seed.
static LLMPlanResult
proposePlan(llm::Client &client, func::FuncOp kernel, PlanOp builtinPlan,
            const TargetProfile &profile, bool allowTf32, unsigned maxRounds,
            ArrayRef<TunedExample> examples, std::optional<int64_t> sample) {
  LLMPlanResult result;
  MLIRContext *context = kernel.getContext();
  llvm::Expected<llm::PromptTemplate> prompt =
      llm::getPromptTemplate("plan.v1");
  if (!prompt) {
    result.fallbackReason = llvm::toString(prompt.takeError());
    return result;
  }
  llvm::json::Object schema = getPlanJSONSchema(context);
  std::string schemaText = printJSON(llvm::json::Value(std::move(schema)));
  llvm::Expected<std::string> text = llm::renderPrompt(
      prompt->text,
      {{"kernel", kernel.getSymName().str()},
       {"kernel_summary", summarizeKernel(kernel)},
       {"kernel_ir", printSanitizedKernel(kernel)},
       {"target", describeTarget(profile)},
       {"max_threads", std::to_string(profile.maxThreadsPerBlock)},
       {"max_shared", std::to_string(profile.sharedMemPerBlock)},
       {"builtin_plan", printJSON(planToJSON(builtinPlan))},
       {"tuned_examples", formatExamples(examples)},
       {"plan_schema", schemaText}});
  if (!text) {
    result.fallbackReason = llvm::toString(text.takeError());
    return result;
  }
  llm::Request request;
  request.role = llm::Role::Planner;
  request.promptVersion = prompt->version;
  request.schemaName = "qimeng_plan";
  request.schema = nlohmann::json::parse(schemaText, nullptr, false);
  request.messages = {{"system", "You are QiMeng's macro planner. Reply with "
                                 "one JSON plan and nothing else."},
                      {"user", *text}};
  if (sample) {
    // Distinct samples are distinct requests (and cache entries).
    request.temperature = kLLMSampleTemperature;
    request.seed = *sample;
  }

  for (unsigned round = 1; round <= maxRounds; ++round) {
    nlohmann::json record = {{"round", round}};
    llvm::Expected<llm::Reply> reply = client.complete(request);
    if (!reply) {
      llm::ReplyFailure failure =
          llm::takeReplyFailure(reply.takeError(), request);
      result.fallbackReason = failure.message;
      if (failure.repairable) {
        record["outcome"] = "invalid-reply";
        record["problems"] = failure.problems;
      } else {
        record["outcome"] = "error";
        record["error"] = failure.message;
      }
      result.rounds.push_back(record);
      if (!failure.repairable)
        return result;
      continue;
    }
    record["seconds"] = reply->latencySeconds;
    record["tokens"] =
        reply->usage.promptTokens + reply->usage.completionTokens;
    record["cached"] = reply->cached;
    record["cache_key"] = reply->cacheKey;

    // Build the plan right after the built-in one and check it.
    std::vector<std::string> problems;
    PlanOp plan =
        buildLLMPlan(*reply->json, kernel, builtinPlan, profile, allowTf32,
                     "llm:" + client.getConfig().plannerModel, problems);
    if (!plan) {
      record["outcome"] = "invalid-plan";
      record["problems"] = problems;
      result.rounds.push_back(record);
      result.fallbackReason =
          llvm::formatv("round {0}: {1}", round, problems.front()).str();
      request.messages.push_back({"assistant", reply->text});
      request.messages.push_back({"user", rejection(problems)});
      continue;
    }
    Builder b(context);
    plan->setAttr(kLLMRoundsAttr, b.getI64IntegerAttr(round));
    plan->setAttr(kLLMCacheKeyAttr, b.getStringAttr(reply->cacheKey));
    record["outcome"] = "accepted";
    result.rounds.push_back(record);
    result.plan = plan;
    result.fallbackReason.clear();
    return result;
  }
  return result;
}

LLMPlanResult mlir::qimeng::planWithLLM(llm::Client &client,
                                        func::FuncOp kernel, PlanOp builtinPlan,
                                        const TargetProfile &profile,
                                        bool allowTf32, unsigned maxRounds,
                                        ArrayRef<TunedExample> examples) {
  LLMPlanResult result =
      proposePlan(client, kernel, builtinPlan, profile, allowTf32, maxRounds,
                  examples, std::nullopt);
  if (result.plan)
    builtinPlan->erase();
  return result;
}

LLMPlanSamples mlir::qimeng::sampleLLMPlans(
    llm::Client &client, func::FuncOp kernel, PlanOp builtinPlan,
    const TargetProfile &profile, bool allowTf32, unsigned samples,
    unsigned maxRounds, ArrayRef<TunedExample> examples) {
  LLMPlanSamples result;
  std::set<std::string> seen = {getPlanIdentity(planToJSON(builtinPlan))};
  for (unsigned sample = 0; sample < samples; ++sample) {
    LLMPlanResult proposed =
        proposePlan(client, kernel, builtinPlan, profile, allowTf32, maxRounds,
                    examples, sample);
    nlohmann::json record = {{"sample", sample}, {"rounds", proposed.rounds}};
    if (!proposed.plan) {
      record["outcome"] = "rejected";
      record["reason"] = proposed.fallbackReason;
      result.records.push_back(record);
      // A failure that is not the model's (no prompt, no endpoint, no key)
      // would repeat for every sample.
      if (proposed.rounds.empty() ||
          proposed.rounds.back().value("outcome", "") == "error")
        break;
      continue;
    }
    llvm::json::Object plan = planToJSON(proposed.plan);
    proposed.plan->erase();
    if (!seen.insert(getPlanIdentity(plan)).second) {
      record["outcome"] = "duplicate";
      result.records.push_back(record);
      continue;
    }
    record["outcome"] = "accepted";
    result.records.push_back(record);
    result.plans.push_back({sample, std::move(plan)});
  }
  return result;
}
