//===- qimeng-llm.cpp - One request to the configured LLM -----------------===//
//
//   qimeng-llm --prompt=TEXT [--system=TEXT] [--role=planner|coder]
//              [--schema=FILE] [--accounting] [--llm-* options]
//   qimeng-llm --show-config
//   qimeng-llm --export-cache=SESSION.json | --import-session=SESSION.json
//
// Sends one chat request through QiMeng's LLM client (the one the planner
// and micro-coder use: same configuration, cache and checks) and prints the
// reply as JSON on stdout: text, parsed JSON (with --schema), finish reason,
// usage, latency, model, attempts, whether it came from the cache, and with
// --accounting the client's accounting. --export-cache writes every entry of
// the cache directory to one session file; --import-session stores a session's
// entries in the cache directory. Errors are one line on stderr and exit 1;
// with no endpoint configured it says so and exits 2.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/LLM/Cache.h"
#include "QiMeng/LLM/Client.h"
#include "QiMeng/LLM/Options.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::qimeng::llm;

namespace {

llvm::cl::OptionCategory toolOptions("qimeng-llm options");

llvm::cl::opt<std::string> prompt("prompt", llvm::cl::cat(toolOptions), llvm::cl::desc("The user message"));
llvm::cl::opt<std::string> systemPrompt("system", llvm::cl::cat(toolOptions),
                                        llvm::cl::desc("A system message"));
llvm::cl::opt<std::string> role("role", llvm::cl::cat(toolOptions),
                                llvm::cl::desc("planner (default) or coder"),
                                llvm::cl::init("planner"));
llvm::cl::opt<std::string>
    schemaFile("schema", llvm::cl::cat(toolOptions), llvm::cl::desc("A JSON schema the reply must follow"));
llvm::cl::opt<bool>
    accounting("accounting", llvm::cl::cat(toolOptions),
               llvm::cl::desc("Add the client's accounting to the "
                              "output"));
llvm::cl::opt<std::string> exportCache(
    "export-cache", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Write every cache entry to this session file and exit"));
llvm::cl::opt<std::string> importSession(
    "import-session", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Store this session file's entries in the cache and exit"));
llvm::cl::opt<bool> showConfig(
    "show-config", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Print the resolved configuration (no key) and exit"));

int fail(const llvm::Twine &message, int code = 1) {
  llvm::errs() << "qimeng-llm: " << message << "\n";
  return code;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerLLMOptions();
  llvm::cl::HideUnrelatedOptions({&toolOptions, &getLLMOptionCategory()});
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "QiMeng: one request to the configured LLM\n\n"
      "  qimeng-llm --show-config\n"
      "  qimeng-llm --prompt='...' --schema=plan.schema.json\n"
      "  qimeng-llm --export-cache=session.json\n");
  llvm::Expected<Config> config = loadConfig(getLLMConfigFlags());
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
        {"cache", stringifyCacheMode(config->cacheMode).str()},
        {"cache_dir", config->cacheDir},
        {"replay", config->replayFile},
        {"record", config->recordFile},
        {"sources", config->sources}};
    llvm::outs() << mlir::qimeng::dumpJSON(out, 2) << "\n";
    return 0;
  }
  if (!exportCache.empty() || !importSession.empty()) {
    if (config->cacheDir.empty())
      return fail("no cache directory: set XDG_CACHE_HOME, HOME or "
                  "--llm-cache-dir");
    Cache cache(config->cacheDir, CacheMode::ReadWrite);
    if (!exportCache.empty()) {
      llvm::Expected<std::vector<CacheEntry>> entries = cache.readAll();
      if (!entries)
        return fail(llvm::toString(entries.takeError()));
      Session session{stringifyProvider(config->provider).str(),
                      config->plannerModel, config->coderModel,
                      std::move(*entries)};
      if (llvm::Error error = writeSession(exportCache, session))
        return fail(llvm::toString(std::move(error)));
      llvm::errs() << "qimeng-llm: exported " << session.entries.size()
                   << " entries to " << exportCache << "\n";
      return 0;
    }
    llvm::Expected<Session> session = readSession(importSession);
    if (!session)
      return fail(llvm::toString(session.takeError()));
    for (const CacheEntry &entry : session->entries)
      if (llvm::Error error = cache.store(entry))
        return fail(llvm::toString(std::move(error)));
    llvm::errs() << "qimeng-llm: imported " << session->entries.size()
                 << " entries into " << config->cacheDir << "\n";
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
  // The session is written whatever the outcome: it holds what was used.
  if (!config->recordFile.empty())
    if (llvm::Error error = (*client)->writeSessionFile(config->recordFile))
      return fail(llvm::toString(std::move(error)));
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
      {"attempts", reply->attempts},
      {"cached", reply->cached},
      {"cache_key", reply->cacheKey}};
  if (reply->json)
    out["json"] = *reply->json;
  if (accounting)
    out["accounting"] = (*client)->statsJSON();
  llvm::outs() << mlir::qimeng::dumpJSON(out, 2) << "\n";
  return 0;
}
