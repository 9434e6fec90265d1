//===- qimeng-llm.cpp - One request to the configured LLM -----------------===//
//
//   qimeng-llm --prompt=TEXT [--system=TEXT] [--role=planner|coder]
//              [--schema=FILE] [--provider=P --base-url=U --planner-model=M
//              --coder-model=M --timeout=S --max-attempts=N]
//   qimeng-llm --show-config
//
// Sends one chat request through QiMeng's LLM client (the one the planner
// and micro-coder use) and prints the reply as JSON on stdout: text, parsed
// JSON (with --schema), finish reason, usage, latency, model, attempts.
// Errors are one line on stderr and exit 1; with no endpoint configured it
// says so and exits 2.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/LLM/Client.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::qimeng::llm;

namespace {

llvm::cl::opt<std::string> prompt("prompt", llvm::cl::desc("The user message"));
llvm::cl::opt<std::string> systemPrompt("system",
                                        llvm::cl::desc("A system message"));
llvm::cl::opt<std::string> role("role",
                                llvm::cl::desc("planner (default) or coder"),
                                llvm::cl::init("planner"));
llvm::cl::opt<std::string>
    schemaFile("schema", llvm::cl::desc("A JSON schema the reply must follow"));
llvm::cl::opt<std::string> provider("provider",
                                    llvm::cl::desc("openai or anthropic"));
llvm::cl::opt<std::string> baseURL("base-url",
                                   llvm::cl::desc("The API's base URL"));
llvm::cl::opt<std::string> plannerModel("planner-model",
                                        llvm::cl::desc("Model of the planner"));
llvm::cl::opt<std::string> coderModel("coder-model",
                                      llvm::cl::desc("Model of the coder"));
llvm::cl::opt<double> timeout("timeout",
                              llvm::cl::desc("Seconds per HTTP attempt"));
llvm::cl::opt<unsigned> maxAttempts("max-attempts",
                                    llvm::cl::desc("HTTP attempts at most"));
llvm::cl::opt<bool> showConfig(
    "show-config",
    llvm::cl::desc("Print the resolved configuration (no key) and exit"));

int fail(const llvm::Twine &message, int code = 1) {
  llvm::errs() << "qimeng-llm: " << message << "\n";
  return code;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "QiMeng: one request to the configured "
                                    "LLM\n");
  ConfigFlags flags;
  flags.provider = provider;
  flags.baseURL = baseURL;
  flags.plannerModel = plannerModel;
  flags.coderModel = coderModel;
  if (timeout.getNumOccurrences())
    flags.totalTimeout = timeout;
  if (maxAttempts.getNumOccurrences())
    flags.maxAttempts = maxAttempts;
  llvm::Expected<Config> config = loadConfig(flags);
  if (!config)
    return fail(llvm::toString(config.takeError()));
  if (showConfig) {
    nlohmann::json out = {
        {"configured", config->configured},
        {"provider", stringifyProvider(config->provider).str()},
        {"base_url", config->baseURL},
        {"planner_model", config->plannerModel},
        {"coder_model", config->coderModel},
        {"api_key", config->apiKey.empty() ? "none" : "set"},
        {"timeout_s", config->totalTimeout},
        {"max_attempts", config->maxAttempts},
        {"sources", config->sources}};
    llvm::outs() << out.dump(2) << "\n";
    return 0;
  }
  if (!config->configured)
    return fail("no LLM endpoint configured (QIMENG_LLM_BASE_URL, "
                "OPENAI_BASE_URL/OPENAI_API_KEY, "
                "ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY or the config file)",
                2);
  if (prompt.empty())
    return fail("--prompt is required");
  if (role != "planner" && role != "coder")
    return fail("--role must be planner or coder, got '" + role + "'");

  Request request;
  request.role = role == "coder" ? Role::Coder : Role::Planner;
  if (!systemPrompt.empty())
    request.messages.push_back({"system", systemPrompt});
  request.messages.push_back({"user", prompt});
  if (!schemaFile.empty()) {
    auto file = llvm::MemoryBuffer::getFile(schemaFile);
    if (!file)
      return fail("cannot read " + schemaFile);
    nlohmann::json schema =
        nlohmann::json::parse((*file)->getBuffer().begin(),
                              (*file)->getBuffer().end(), nullptr, false);
    if (schema.is_discarded() || !schema.is_object())
      return fail(schemaFile + " is not a JSON schema object");
    request.schema = std::move(schema);
  }
  llvm::Expected<std::unique_ptr<Client>> client = Client::create(*config);
  if (!client)
    return fail(llvm::toString(client.takeError()));
  llvm::Expected<Reply> reply = (*client)->complete(request);
  if (!reply)
    return fail(llvm::toString(reply.takeError()));
  nlohmann::json out = {
      {"text", reply->text},
      {"finish_reason", reply->finishReason},
      {"usage",
       {{"prompt_tokens", reply->usage.promptTokens},
        {"completion_tokens", reply->usage.completionTokens}}},
      {"latency_s", reply->latencySeconds},
      {"model", reply->model},
      {"attempts", reply->attempts}};
  if (reply->json)
    out["json"] = *reply->json;
  llvm::outs() << out.dump(2) << "\n";
  return 0;
}
