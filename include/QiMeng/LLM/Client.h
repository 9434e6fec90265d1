//===- Client.h - Talking to an LLM over HTTP -------------------*- C++ -*-===//
//
// One small client for the two API shapes QiMeng speaks: OpenAI Chat
// Completions (also vLLM, llama.cpp, Ollama /v1, SGLang, LM Studio, LiteLLM)
// and Anthropic Messages. A request is a role (planner or coder), messages,
// an optional JSON schema and sampling options; a reply is the text, the
// parsed JSON when a schema was given, the finish reason, token usage, the
// latency and the model id. Transient failures are retried with backoff;
// every error says which provider, which status and what to do, and never
// contains an API key.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_CLIENT_H
#define QIMENG_LLM_CLIENT_H

#include "QiMeng/LLM/Config.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::qimeng::llm {

struct Message {
  /// "system", "user" or "assistant".
  std::string role;
  std::string content;
};

struct Request {
  Role role = Role::Planner;
  std::vector<Message> messages;
  /// A JSON schema the reply must follow (sent where the provider supports
  /// it, always checked locally by the caller).
  std::optional<nlohmann::json> schema;
  /// A name for the schema (OpenAI wants one).
  std::string schemaName = "reply";
  /// Sent only when set.
  std::optional<double> temperature;
  std::optional<int64_t> seed;
  /// Sent as max_tokens when set; Anthropic requires one (4096 by default).
  std::optional<int64_t> maxTokens;
};

struct Usage {
  int64_t promptTokens = 0, completionTokens = 0;
};

struct Reply {
  std::string text;
  /// The text parsed as JSON when the request had a schema.
  std::optional<nlohmann::json> json;
  /// As the provider says it ("stop", "end_turn", ...).
  std::string finishReason;
  Usage usage;
  double latencySeconds = 0;
  std::string model;
  /// HTTP attempts it took (1 = no retry).
  unsigned attempts = 1;
};

/// The JSON body of a request in the provider's shape.
nlohmann::json buildRequestBody(Provider provider, const std::string &model,
                                const Request &request);

/// Reads a provider's 200 reply body. Errors (with the provider named): not
/// JSON, no content, a refusal, a reply cut off at the token limit, and a
/// reply that is not JSON when `expectJSON`.
llvm::Expected<Reply> parseReplyBody(Provider provider, llvm::StringRef body,
                                     bool expectJSON);

/// What to do after an HTTP failure.
struct RetryDecision {
  bool retry = false;
  /// Seconds to wait before the next attempt.
  double delaySeconds = 0;
  /// Why not (for the error message), when !retry.
  std::string reason;
};

/// Retries 408, 409, 429 (unless the quota is exhausted), 5xx and 529 (and
/// status 0: connection failures and time-outs) with exponential backoff
/// from `baseDelay` and full jitter in [0.5, 1] (from `jitter01`),
/// honouring `retry-after-ms` / `retry-after` (seconds) up to `maxDelay`; no
/// retry on other statuses or after `maxAttempts` attempts.
RetryDecision decideRetry(int status, llvm::StringRef body,
                          llvm::StringRef retryAfter,
                          llvm::StringRef retryAfterMs, unsigned attempt,
                          unsigned maxAttempts, double baseDelay,
                          double maxDelay, double jitter01);

class Client {
public:
  /// A client for `config`; errors when its provider or base URL is unusable
  /// (configuration with no endpoint is "no LLM", see Config::configured).
  static llvm::Expected<std::unique_ptr<Client>> create(Config config);
  ~Client();

  /// Sends `request` to the model of its role, retrying transient failures.
  llvm::Expected<Reply> complete(const Request &request);

  const Config &getConfig() const { return config; }

private:
  explicit Client(Config config) : config(std::move(config)) {}
  Config config;
};

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_CLIENT_H
