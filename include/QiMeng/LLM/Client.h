//===- Client.h - Talking to an LLM over HTTP -------------------*- C++ -*-===//
//
// One small client for the two API shapes QiMeng speaks: OpenAI Chat
// Completions (also vLLM, llama.cpp, Ollama /v1, SGLang, LM Studio, LiteLLM)
// and Anthropic Messages. A request is a role (planner or coder), messages,
// an optional JSON schema and sampling options; a reply is the text, the
// parsed JSON when a schema was given (checked against it locally), the
// finish reason, token usage, the latency and the model id. Replies come
// from the cache (Cache.h) when they can. Transient failures are retried
// with backoff; every error says which provider, which status and what to
// do, and never contains an API key.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_CLIENT_H
#define QIMENG_LLM_CLIENT_H

#include "QiMeng/LLM/Config.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <memory>
#include <mutex>
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
  /// The version of the prompt template the messages came from; part of the
  /// cache key, so a new template never replays an old reply.
  std::string promptVersion;
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
  /// HTTP attempts it took (1 = no retry; 0 = from the cache).
  unsigned attempts = 1;
  /// Served from the cache (latency is then the lookup's).
  bool cached = false;
  /// The cache key of the request ("" with the cache off).
  std::string cacheKey;
};

/// A reply that came back but is not the JSON the schema asks for. The
/// caller can send `feedback()` to the model and ask again; it is never
/// used as data.
class InvalidReplyError : public llvm::ErrorInfo<InvalidReplyError> {
public:
  static char ID;
  InvalidReplyError(std::string where, std::string text,
                    std::vector<std::string> problems, bool notJSON = false)
      : where(std::move(where)), text(std::move(text)),
        problems(std::move(problems)), notJSON(notJSON) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  /// What was wrong, addressed to the model, for a repair round.
  std::string feedback() const;

  std::string where;
  /// The reply's text as received.
  std::string text;
  /// "<JSON pointer>: <problem>" each, or one "not JSON" problem.
  std::vector<std::string> problems;
  /// The text does not parse as JSON at all.
  bool notJSON;
};

/// What a failed Client::complete() leaves for a conversation. An
/// InvalidReplyError (a reply came, but not the JSON asked for) can be
/// repaired: the reply and its feedback are appended to `request`, so the
/// next complete() asks again. Anything else (transport, provider) cannot:
/// the client already retried what could be retried.
struct ReplyFailure {
  std::string message;
  bool repairable = false;
  /// The problems of an invalid reply.
  std::vector<std::string> problems;
};
ReplyFailure takeReplyFailure(llvm::Error error, Request &request);

/// The JSON body of a request in the provider's shape.
nlohmann::json buildRequestBody(Provider provider, const std::string &model,
                                const Request &request);

/// Reads a provider's 200 reply body. Errors (with the provider named): not
/// JSON, no content, a refusal, a reply cut off at the token limit.
llvm::Expected<Reply> parseReplyBody(Provider provider, llvm::StringRef body);

/// Parses `reply.text` as JSON (a Markdown code fence around it is dropped:
/// models add one even when told not to) into `reply.json` and checks it
/// against `schema`; an InvalidReplyError (naming `where`) when either
/// fails.
llvm::Error decodeJSONReply(Reply &reply, const nlohmann::json &schema,
                            llvm::StringRef where);

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

class Cache;

/// What one role's requests cost, for the report of a compile.
struct RoleStats {
  /// complete() calls; those answered by the cache; HTTP attempts made;
  /// calls that ended in an error (transport, provider or schema).
  unsigned requests = 0, cacheHits = 0, httpAttempts = 0, failures = 0;
  /// Tokens and seconds spent on the network (cache hits cost none).
  int64_t promptTokens = 0, completionTokens = 0;
  double latencySeconds = 0;
};

class Client {
public:
  /// A client for `config`; errors when its provider or base URL is unusable
  /// or its replay file does not read (configuration with no endpoint is
  /// "no LLM", see Config::configured).
  static llvm::Expected<std::unique_ptr<Client>> create(Config config);
  ~Client();

  /// Answers `request` with the model of its role: from the cache when it
  /// can, else over HTTP, retrying transient failures. With a schema the
  /// reply is checked against it (InvalidReplyError when it fails). Safe to
  /// call from several threads.
  llvm::Expected<Reply> complete(const Request &request);

  const Config &getConfig() const { return config; }

  /// Requests, hits, tokens and latency per role, and the cache's counters,
  /// as JSON for reports.
  nlohmann::json statsJSON() const;
  RoleStats getStats(Role role) const;

  /// Writes the entries this client used (looked up or stored) to a session
  /// file that --llm-replay reads back.
  llvm::Error writeSessionFile(llvm::StringRef path) const;

private:
  explicit Client(Config config);
  llvm::Expected<Reply> fetch(const Request &request, const std::string &where,
                              RoleStats &stats);

  Config config;
  std::unique_ptr<Cache> cache;
  mutable std::mutex statsMutex;
  std::array<RoleStats, 2> stats;
};

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_CLIENT_H
