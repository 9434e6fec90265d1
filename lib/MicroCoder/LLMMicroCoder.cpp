//===- LLMMicroCoder.cpp - Verified micro-coding by an LLM ----------------===//

#include "QiMeng/MicroCoder/LLMMicroCoder.h"

#include "QiMeng/LLM/Attempt.h"
#include "QiMeng/LLM/Prompts.h"
#include "QiMeng/MicroCoder/CandidateCheck.h"
#include "QiMeng/MicroCoder/Realize.h"
#include "QiMeng/Planner/KernelSummary.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Verifier/VerifyStep.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A kernel implementation: a module of its own holding the function and
/// the workgroup globals it uses.
using State = OwningOpRef<ModuleOp>;

State cloneState(ModuleOp state) {
  return State(cast<ModuleOp>(state->clone()));
}

func::FuncOp getFunction(ModuleOp state) {
  return *state.getOps<func::FuncOp>().begin();
}

/// A module holding a copy of `kernel` (and nothing else).
State makeSpec(func::FuncOp kernel) {
  OpBuilder builder(kernel.getContext());
  State state = ModuleOp::create(kernel.getLoc());
  builder.setInsertionPointToEnd(state->getBody());
  builder.clone(*kernel);
  return state;
}

/// `spec` with the actions `indices` of `plan` realized by the built-in
/// micro-coder, or null (`why` says why).
State realizeBuiltin(PlanOp plan, ArrayRef<unsigned> indices, ModuleOp spec,
                     std::string &why) {
  State state = cloneState(spec);
  OpBuilder builder(spec.getContext());
  builder.setInsertionPointToEnd(state->getBody());
  auto copy = cast<PlanOp>(builder.clone(*plan));
  SmallVector<Operation *> actions = llvm::to_vector(llvm::map_range(
      copy.getBody().front(), [](Operation &op) { return &op; }));
  for (auto [i, action] : llvm::enumerate(actions))
    if (!llvm::is_contained(indices, i))
      action->erase();
  ErrorCollector diagnostics(spec.getContext());
  LogicalResult realized = realizePlan(copy, getFunction(*state), -1);
  copy->erase();
  if (failed(realized)) {
    why = diagnostics.join();
    return nullptr;
  }
  return state;
}

/// Lowers a copy of `state` to PTX in this process; the diagnostics when
/// it fails.
std::optional<std::string> compileToPTX(ModuleOp state) {
  State copy = cloneState(state);
  MLIRContext *context = state.getContext();
  PassManager pm(context);
  std::string parseError;
  llvm::raw_string_ostream errors(parseError);
  if (failed(parsePassPipeline("lower-to-nvvm", pm, errors)))
    return "the lower-to-nvvm pipeline is not registered here: " + parseError;
  ErrorCollector diagnostics(context);
  if (failed(pm.run(*copy)))
    return diagnostics.join("; ", "lowering failed");
  return std::nullopt;
}

/// The outcome of checking one implementation.
struct Check {
  enum Kind { Verified, Unverified, Failed } kind;
  std::string detail;
  /// Unverified because the machine has no GPU (not because the check
  /// itself broke).
  bool noGpu = false;
};

Check checkState(ModuleOp state, ModuleOp spec, StringRef name,
                 const MicroCodeOptions &options) {
  StepOptions stepOptions;
  stepOptions.trials = options.trials;
  stepOptions.timeoutSeconds = 180;
  StepResult result = verifyStep(state, spec, name, stepOptions);
  if (result.status == StepStatus::Pass)
    return {Check::Verified, "verified on the GPU"};
  if (result.status == StepStatus::Fail)
    return {Check::Failed, result.reason};
  // Not run (no GPU, no qimeng-run, the reference failed): check as far as
  // possible here.
  if (std::optional<std::string> error = compileToPTX(state))
    return {Check::Failed, "it does not compile to PTX: " + *error};
  return {Check::Unverified,
          "compiles to PTX, not run on a GPU (" + result.reason + ")",
          result.noGpu};
}

/// The feedback for a candidate that failed with `why`.
std::string repairMessage(StringRef why) {
  return llm::repairMessage("implementation", why, "mlir");
}

/// Gives the globals of `state` names of the kernel's own that `module`
/// does not use (the shared buffers of every kernel are called @alloca,
/// ...).
void renameGlobals(ModuleOp state, ModuleOp module, StringRef kernel) {
  SymbolTable table(module);
  func::FuncOp func = getFunction(state);
  for (auto global : llvm::to_vector(state.getOps<memref::GlobalOp>())) {
    std::string base = (kernel + "_" + global.getSymName()).str();
    std::string name = base;
    for (unsigned i = 0; table.lookup(name) || state.lookupSymbol(name); ++i)
      name = base + "_" + std::to_string(i);
    auto newName = StringAttr::get(state.getContext(), name);
    if (succeeded(SymbolTable::replaceAllSymbolUses(global.getSymNameAttr(),
                                                    newName, func)))
      global.setSymName(name);
  }
}

} // namespace

nlohmann::json mlir::qimeng::getMicroCodeReplySchema() {
  return {{"type", "object"},
          {"required", {"mlir"}},
          {"additionalProperties", false},
          {"properties", {{"mlir", {{"type", "string"}}}}}};
}

OwningOpRef<ModuleOp>
mlir::qimeng::checkMicroCodeReply(const nlohmann::json &reply,
                                  StringRef kernelName, StringRef functionType,
                                  MLIRContext *context, std::string &reason) {
  // The schema makes it an object with a string "mlir"; checked again here,
  // so a reply is never trusted to have followed it.
  auto text = reply.is_object() ? reply.find("mlir") : reply.end();
  if (text == reply.end() || !text->is_string()) {
    reason = "the reply is not a JSON object with a string \"mlir\"";
    return nullptr;
  }
  return checkCandidate(text->get_ref<const std::string &>(), kernelName,
                        functionType, context, reason);
}

LogicalResult mlir::qimeng::microCodeKernel(ModuleOp module, PlanOp plan,
                                            func::FuncOp kernel,
                                            const MicroCodeOptions &options,
                                            nlohmann::json &report) {
  StringRef name = kernel.getSymName();
  auto progress = [&](const Twine &line) {
    if (options.progress)
      options.progress("@" + name + ": " + line);
  };
  State spec = makeSpec(kernel);
  std::string functionType = llvm::to_string(kernel.getFunctionType());
  SmallVector<MacroActionOpInterface> actions = plan.getActions();
  unsigned n = actions.size();

  // Steps: each ends where the built-in micro-coder can realize the plan so
  // far as a runnable kernel. Those realizations are kept: they are the
  // built-in steps while every step so far is the built-in one.
  SmallVector<unsigned> ends;
  std::map<unsigned, State> builtinPrefixes;
  for (unsigned k = 1; k < n; ++k) {
    SmallVector<unsigned> prefix = llvm::to_vector(llvm::seq<unsigned>(0, k));
    std::string why;
    if (State realized = realizeBuiltin(plan, prefix, *spec, why)) {
      ends.push_back(k);
      builtinPrefixes[k] = std::move(realized);
    }
  }
  ends.push_back(n);

  llm::Request request;
  std::optional<llm::PromptTemplate> prompt;
  if (options.client) {
    llvm::Expected<llm::PromptTemplate> loaded =
        llm::getPromptTemplate("microcode.v1");
    if (!loaded)
      return plan.emitOpError() << llvm::toString(loaded.takeError());
    prompt = *loaded;
  }

  State current = cloneState(*spec);
  bool haveImplementation = false, llmWritten = false, allVerified = true;
  SmallVector<unsigned> builtinActions;
  unsigned rollbacks = 0;
  nlohmann::json steps = nlohmann::json::array();
  unsigned begin = 0;
  for (auto [stepIndex, end] : llvm::enumerate(ends)) {
    SmallVector<unsigned> group =
        llvm::to_vector(llvm::seq<unsigned>(begin, end));
    begin = end;
    std::string actionText;
    nlohmann::json actionList = nlohmann::json::array();
    for (unsigned i : group) {
      std::string text = llvm::to_string(*actions[i].getOperation());
      actionList.push_back(text);
      actionText += "- " + text + "\n";
    }
    std::string stepName =
        llvm::formatv("step {0}/{1}", stepIndex + 1, ends.size()).str();
    nlohmann::json step = {{"step", stepIndex + 1},
                           {"actions", actionList},
                           {"attempts", nlohmann::json::array()}};
    State accepted;
    Check acceptedCheck{Check::Failed, ""};

    // The LLM writes the step, repaired for up to `rounds` rounds.
    if (options.client) {
      llvm::Expected<std::string> text = llm::renderPrompt(
          prompt->text,
          {{"spec_ir", printSanitizedKernel(getFunction(*spec))},
           {"current_ir", llvm::to_string(*current->getOperation())},
           {"actions", actionText},
           {"kernel", name.str()},
           {"signature", functionType},
           {"allowed_dialects", getAllowedDialectsText().str()}});
      if (!text)
        return plan.emitOpError() << llvm::toString(text.takeError());
      request = llm::Request();
      request.role = llm::Role::Coder;
      request.promptVersion = prompt->version;
      request.schemaName = "qimeng_microcode";
      request.schema = getMicroCodeReplySchema();
      request.messages = {{"system", "You are QiMeng's micro-coder. Reply "
                                     "with {\"mlir\": \"...\"} only."},
                          {"user", *text}};
      for (unsigned round = 1; round <= options.rounds; ++round) {
        llm::Attempt attempt(round);
        auto finishAttempt = [&](StringRef outcome, StringRef error) {
          attempt.finish(step["attempts"], outcome, error, "error");
          progress(stepName + " (" + actionList[0].get<std::string>() +
                   (group.size() > 1 ? ", ..." : "") + "): llm round " +
                   Twine(round) + ": " + outcome +
                   (error.empty() ? "" : ": " + error.take_front(160)));
        };
        llvm::Expected<llm::Reply> reply = options.client->complete(request);
        if (!reply) {
          llm::ReplyFailure failure =
              llm::takeReplyFailure(reply.takeError(), request);
          finishAttempt(failure.repairable ? "invalid-reply" : "error",
                        failure.message);
          if (!failure.repairable)
            break;
          continue;
        }
        attempt.json()["tokens"] =
            reply->usage.promptTokens + reply->usage.completionTokens;
        attempt.json()["cached"] = reply->cached;
        request.messages.push_back({"assistant", reply->text});
        std::string reason;
        State candidate = checkMicroCodeReply(*reply->json, name, functionType,
                                              kernel.getContext(), reason);
        if (!candidate) {
          finishAttempt("rejected", reason);
          request.messages.push_back({"user", repairMessage(reason)});
          continue;
        }
        Check check = checkState(*candidate, *spec, name, options);
        if (check.kind == Check::Failed) {
          finishAttempt("failed", check.detail);
          request.messages.push_back({"user", repairMessage(check.detail)});
          continue;
        }
        if (check.kind == Check::Unverified && options.requireGpuVerification)
          return plan.emitOpError()
                 << "@" << name << " " << stepName
                 << ": the LLM's implementation could not be verified on a "
                    "GPU ("
                 << check.detail << ") and --require-gpu-verification is set";
        // LLM code is taken only on a pass: where the check could not run
        // with a GPU present (the reference failed, the checker died), or
        // without one unless the user allows it, the step rolls back.
        if (check.kind == Check::Unverified &&
            !(check.noGpu && options.allowUnverified)) {
          finishAttempt("not kept",
                        (check.noGpu ? "unverified LLM code is kept only with "
                                       "--allow-unverified-llm-code; "
                                     : "a GPU is present but the check could "
                                       "not run; ") +
                            check.detail);
          break;
        }
        finishAttempt(check.kind == Check::Verified ? "verified" : "unverified",
                      check.kind == Check::Verified ? "" : check.detail);
        accepted = std::move(candidate);
        acceptedCheck = check;
        break;
      }
    }

    if (accepted) {
      step["result"] = "llm";
      llmWritten = true;
    } else {
      // Roll back to the last verified implementation; the built-in
      // micro-coder realizes the step when it can.
      if (options.client)
        ++rollbacks;
      step["rolled_back"] = options.client != nullptr;
      std::string why;
      if (llmWritten) {
        why = "the built-in micro-coder realizes plans on the original "
              "kernel, not on LLM-written code";
      } else {
        SmallVector<unsigned> withStep(builtinActions);
        llvm::append_range(withStep, group);
        // No step skipped so far: the whole prefix, realized above already.
        auto known = builtinPrefixes.find(end);
        State built = withStep.size() == end && known != builtinPrefixes.end()
                          ? std::move(known->second)
                          : realizeBuiltin(plan, withStep, *spec, why);
        if (built) {
          Check check = checkState(*built, *spec, name, options);
          if (check.kind == Check::Failed) {
            why = "the built-in implementation failed verification: " +
                  check.detail;
          } else if (check.kind == Check::Unverified &&
                     options.requireGpuVerification) {
            return plan.emitOpError()
                   << "@" << name << " " << stepName
                   << ": could not be verified on a GPU (" << check.detail
                   << ") and --require-gpu-verification is set";
          } else {
            accepted = std::move(built);
            acceptedCheck = check;
            builtinActions = withStep;
          }
        }
      }
      if (accepted) {
        step["result"] = "builtin";
      } else {
        step["result"] = "skipped";
        step["reason"] = why;
      }
      if (options.client || !accepted)
        progress(stepName + ": " +
                 (accepted ? Twine("rolled back to the last verified "
                                   "implementation; built-in micro-coder")
                           : "skipped (" + Twine(why).str() + ")"));
    }
    if (accepted) {
      current = std::move(accepted);
      haveImplementation = true;
      allVerified &= acceptedCheck.kind == Check::Verified;
      step["verification"] = acceptedCheck.kind == Check::Verified
                                 ? "gpu"
                                 : "unverified: " + acceptedCheck.detail;
    }
    steps.push_back(step);
  }

  report["steps"] = steps;
  report["rollbacks"] = rollbacks;
  unsigned byLLM = 0, byBuiltin = 0, skipped = 0;
  for (const nlohmann::json &step : steps) {
    const std::string &result = step["result"].get_ref<const std::string &>();
    byLLM += result == "llm";
    byBuiltin += result == "builtin";
    skipped += result == "skipped";
  }
  progress(llvm::formatv("{0} step(s): {1} by the LLM, {2} built-in, {3} "
                         "skipped; {4} rollback(s); {5}",
                         steps.size(), byLLM, byBuiltin, skipped, rollbacks,
                         !haveImplementation ? "nothing realized"
                         : allVerified       ? "verified on the GPU"
                                             : "not all verified on a GPU")
               .str());
  report["final"] = allVerified ? "verified on the GPU" : "not all verified";
  if (!haveImplementation)
    return plan.emitOpError()
           << "no step of the plan of @" << name << " could be realized";

  // The kernel becomes the last verified implementation.
  renameGlobals(*current, module, name);
  OpBuilder builder(module.getContext());
  builder.setInsertionPoint(kernel);
  for (auto global : current->getOps<memref::GlobalOp>())
    builder.clone(*global);
  builder.setInsertionPointAfter(kernel);
  cast<func::FuncOp>(builder.clone(*getFunction(*current)))
      .setVisibility(kernel.getVisibility());
  kernel->erase();
  return success();
}
