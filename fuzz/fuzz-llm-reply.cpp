//===- fuzz-llm-reply.cpp - What an LLM answers, taken apart --------------===//
//
// The bytes are what came back from an LLM, read the ways QiMeng reads it:
//   - as the HTTP body of an OpenAI or an Anthropic reply (parseReplyBody);
//   - as the reply's text, decoded against the plan schema (decodeJSONReply)
//     and built into a plan on a real kernel (buildLLMPlan: kernel name, op
//     verifiers, resource checks), as the LLM planner does;
//   - as the reply's text, decoded against the micro-coder's schema and
//     checked as a candidate kernel (checkMicroCodeReply), as the LLM
//     micro-coder does.
// A reply that is rejected becomes feedback for the next round: that round's
// request must still have a cache key (its canonical JSON must serialize),
// and what goes into the compile report must serialize too.
//
//===----------------------------------------------------------------------===//

#include "FuzzKernels.h"
#include "FuzzSupport.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"
#include "QiMeng/LLM/Cache.h"
#include "QiMeng/LLM/Client.h"
#include "QiMeng/MicroCoder/LLMMicroCoder.h"
#include "QiMeng/Planner/LLMPlanner.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Support/JSONText.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {
/// The kernel micro-coder replies are checked against (a bufferized
/// elementwise kernel, as the micro-coder sees one).
constexpr llvm::StringLiteral kCoderKernel = "k";
constexpr llvm::StringLiteral kCoderType =
    "(memref<64xf32>, memref<64xf32>) -> ()";

struct State {
  State() : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    module = fuzz::parsePlannedKernels(&context);
    std::string text =
        llvm::formatv("{0}", llvm::json::Value(getPlanJSONSchema(&context)));
    planSchema = nlohmann::json::parse(text);
    coderSchema = getMicroCodeReplySchema();
    profile = *lookupTargetProfile("sm_90");
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  nlohmann::json planSchema, coderSchema;
  TargetProfile profile;
};

State &getState() {
  static State state;
  return state;
}

/// A first request of `role`, as the planner or the micro-coder makes one.
/// Its schema is a small one: the real one is fixed, valid JSON, and what
/// the next round adds (the reply, the feedback) is what can break the
/// key; hashing the plan schema for every input would only slow fuzzing.
llm::Request makeRequest(llm::Role role) {
  llm::Request request;
  request.role = role;
  request.schema = getState().coderSchema;
  request.promptVersion = "fuzz";
  request.messages = {{"system", "Reply with JSON."}, {"user", "The kernel."}};
  return request;
}

/// What follows a rejected reply: `feedback` is sent back with the next
/// request, whose cache key is computed first, and `record` goes into the
/// compile report. Both must serialize whatever the reply held.
void nextRound(llm::Request &request, const std::string &feedback,
               nlohmann::json record) {
  if (!feedback.empty())
    request.messages.push_back({"user", feedback});
  (void)llm::cacheKey(
      llm::canonicalRequest(llm::Provider::OpenAI, "fuzz-model", request));
  (void)dumpJSON(nlohmann::json::array({std::move(record)}), 2);
}

/// A reply that did not decode: the round is over, the model is told why.
void rejectReply(llvm::Error error, llm::Request &request) {
  llm::ReplyFailure failure = llm::takeReplyFailure(std::move(error), request);
  if (failure.message.empty())
    fuzz::reportBug("a rejected reply has no message");
  nextRound(request, "",
            {{"outcome", failure.repairable ? "invalid-reply" : "error"},
             {"problems", failure.problems},
             {"error", failure.message}});
}

/// The LLM planner's reading of a reply's text.
void planFromReply(const std::string &text) {
  State &state = getState();
  llm::Request request = makeRequest(llm::Role::Planner);
  llm::Reply reply;
  reply.text = text;
  if (llvm::Error error =
          llm::decodeJSONReply(reply, state.planSchema, "planner"))
    return rejectReply(std::move(error), request);
  if (!reply.json)
    fuzz::reportBug("a decoded reply has no JSON");
  // The kernel the reply names, so plans for each kernel get checked.
  std::string named;
  if (reply.json->is_object())
    if (auto it = reply.json->find("kernel");
        it != reply.json->end() && it->is_string())
      named = it->get<std::string>();
  ModuleOp module = *state.module;
  func::FuncOp kernel = fuzz::getKernel(module, named);
  PlanOp builtin = fuzz::getBuiltinPlan(module, kernel);
  size_t ops = module.getBody()->getOperations().size();
  std::vector<std::string> problems;
  ErrorCollector errors(&state.context);
  // Both answers to --allow-tf32, by the input's length.
  bool allowTf32 = text.size() % 2 == 1;
  PlanOp plan = buildLLMPlan(*reply.json, kernel, builtin, state.profile,
                             allowTf32, "llm:fuzz-model", problems);
  if (plan) {
    nlohmann::json record = {{"outcome", "accepted"},
                             {"kernel", plan.getKernel().str()}};
    plan->erase();
    nextRound(request, "", std::move(record));
  } else {
    if (problems.empty())
      fuzz::reportBug("a rejected plan has no problems");
    std::string feedback = "The plan was rejected:\n";
    for (const std::string &problem : problems)
      feedback += "- " + problem + "\n";
    nextRound(request, feedback,
              {{"outcome", "invalid-plan"}, {"problems", problems}});
  }
  if (module.getBody()->getOperations().size() != ops)
    fuzz::reportBug("a reply's plan was left in the IR");
}

/// The LLM micro-coder's reading of a reply's text.
void codeFromReply(const std::string &text) {
  State &state = getState();
  llm::Request request = makeRequest(llm::Role::Coder);
  llm::Reply reply;
  reply.text = text;
  if (llvm::Error error =
          llm::decodeJSONReply(reply, state.coderSchema, "coder"))
    return rejectReply(std::move(error), request);
  std::string reason;
  ErrorCollector errors(&state.context);
  OwningOpRef<ModuleOp> candidate = checkMicroCodeReply(
      *reply.json, kCoderKernel, kCoderType, &state.context, reason);
  if (candidate)
    return nextRound(request, "", {{"outcome", "accepted"}});
  if (reason.empty())
    fuzz::reportBug("a rejected candidate has no reason");
  nextRound(request, "Your implementation was rejected: " + reason,
            {{"outcome", "rejected"}, {"error", reason}});
}

/// Both roles' reading of a reply's text.
void readReplyText(const std::string &text) {
  planFromReply(text);
  codeFromReply(text);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::setUpCompiler();
  (void)getState();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  llvm::StringRef bytes = fuzz::asText(data, size);
  // The provider's HTTP reply body, then the text it carries.
  for (llm::Provider provider :
       {llm::Provider::OpenAI, llm::Provider::Anthropic}) {
    llvm::Expected<llm::Reply> body = llm::parseReplyBody(provider, bytes);
    if (!body) {
      llm::Request request = makeRequest(llm::Role::Planner);
      rejectReply(body.takeError(), request);
      continue;
    }
    if (llvm::StringRef(body->text).trim().empty())
      fuzz::reportBug("a reply body with no content was accepted");
    readReplyText(body->text);
  }
  // The bytes as the reply's text.
  readReplyText(bytes.str());
  return 0;
}
