//===- Client.cpp - HTTP calls with retries (libcurl) ---------------------===//

#include "QiMeng/LLM/Client.h"
#include "QiMeng/LLM/Cache.h"
#include "QiMeng/LLM/Schema.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

// Only the types and constants: libcurl itself is loaded at run time, so
// the tools (the static qimeng-opt too) run where it is not installed and
// only an LLM call needs it.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <random>
#include <thread>

using namespace mlir::qimeng::llm;
using nlohmann::json;

Client::~Client() = default;

namespace {

/// One HTTP exchange's outcome; status 0 when no response came.
struct HttpResult {
  int status = 0;
  std::string body;
  std::string retryAfter, retryAfterMs;
  /// Why no response (connection refused, time-out, reply too large).
  std::string transportError;
  /// Not worth retrying: the reply is too large, libcurl is missing.
  bool tooLarge = false, fatal = false;
};

struct Receiver {
  std::string *body;
  size_t limit;
  bool tooLarge = false;
};

size_t receiveBody(char *data, size_t size, size_t count, void *user) {
  auto *receiver = static_cast<Receiver *>(user);
  size_t bytes = size * count;
  if (receiver->body->size() + bytes > receiver->limit) {
    receiver->tooLarge = true;
    return 0; // aborts the transfer
  }
  receiver->body->append(data, bytes);
  return bytes;
}

size_t receiveHeader(char *data, size_t size, size_t count, void *user) {
  auto *result = static_cast<HttpResult *>(user);
  llvm::StringRef line(data, size * count);
  auto [name, value] = line.split(':');
  if (name.trim().equals_insensitive("retry-after"))
    result->retryAfter = value.trim().str();
  else if (name.trim().equals_insensitive("retry-after-ms"))
    result->retryAfterMs = value.trim().str();
  return size * count;
}

/// The libcurl functions the client calls, loaded with dlopen.
struct CurlApi {
  CURLcode (*globalInit)(long);
  CURL *(*easyInit)();
  CURLcode (*setopt)(CURL *, CURLoption, ...);
  CURLcode (*perform)(CURL *);
  CURLcode (*getinfo)(CURL *, CURLINFO, ...);
  const char *(*strerror)(CURLcode);
  void (*cleanup)(CURL *);
  curl_slist *(*slistAppend)(curl_slist *, const char *);
  void (*slistFreeAll)(curl_slist *);
};

/// libcurl ($QIMENG_LIBCURL, else libcurl.so.4), initialized once; an
/// error when it cannot be loaded.
llvm::Expected<const CurlApi &> loadCurl() {
  static CurlApi api;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    const char *path = std::getenv("QIMENG_LIBCURL");
    if (!path || !*path)
      path = "libcurl.so.4";
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *why = dlerror();
      failure = llvm::formatv("cannot load {0} ({1}); the LLM client needs "
                              "libcurl (Debian/Ubuntu: apt install libcurl4)",
                              path, why ? why : "unknown reason");
      return;
    }
    std::string missing;
    auto resolve = [&](const char *name, auto &fn) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(library, name));
      if (!fn && missing.empty())
        missing = name;
    };
    resolve("curl_global_init", api.globalInit);
    resolve("curl_easy_init", api.easyInit);
    resolve("curl_easy_setopt", api.setopt);
    resolve("curl_easy_perform", api.perform);
    resolve("curl_easy_getinfo", api.getinfo);
    resolve("curl_easy_strerror", api.strerror);
    resolve("curl_easy_cleanup", api.cleanup);
    resolve("curl_slist_append", api.slistAppend);
    resolve("curl_slist_free_all", api.slistFreeAll);
    if (!missing.empty()) {
      failure = llvm::formatv("{0} has no {1}", path, missing);
      return;
    }
    api.globalInit(CURL_GLOBAL_DEFAULT);
  });
  if (!failure.empty())
    return llvm::createStringError(failure);
  return api;
}

HttpResult post(const std::string &url, const std::vector<std::string> &headers,
                const std::string &body, const Config &config) {
  HttpResult result;
  llvm::Expected<const CurlApi &> loaded = loadCurl();
  if (!loaded) {
    result.transportError = llvm::toString(loaded.takeError());
    result.fatal = true;
    return result;
  }
  const CurlApi &api = *loaded;
  CURL *curl = api.easyInit();
  if (!curl) {
    result.transportError = "libcurl could not start";
    return result;
  }
  curl_slist *list = nullptr;
  for (const std::string &header : headers)
    list = api.slistAppend(list, header.c_str());
  Receiver receiver{&result.body, config.maxReplyBytes};
  api.setopt(curl, CURLOPT_URL, url.c_str());
  api.setopt(curl, CURLOPT_HTTPHEADER, list);
  api.setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  api.setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
             static_cast<curl_off_t>(body.size()));
  api.setopt(curl, CURLOPT_WRITEFUNCTION, receiveBody);
  api.setopt(curl, CURLOPT_WRITEDATA, &receiver);
  api.setopt(curl, CURLOPT_HEADERFUNCTION, receiveHeader);
  api.setopt(curl, CURLOPT_HEADERDATA, &result);
  api.setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
             static_cast<long>(config.connectTimeout * 1000));
  api.setopt(curl, CURLOPT_TIMEOUT_MS,
             static_cast<long>(config.totalTimeout * 1000));
  api.setopt(curl, CURLOPT_NOSIGNAL, 1L);
  api.setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  CURLcode code = api.perform(curl);
  if (receiver.tooLarge) {
    result.tooLarge = true;
    result.transportError = llvm::formatv(
        "the reply is larger than the {0}-byte limit", config.maxReplyBytes);
  } else if (code != CURLE_OK) {
    result.transportError = api.strerror(code);
  } else {
    long status = 0;
    api.getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    result.status = static_cast<int>(status);
  }
  api.slistFreeAll(list);
  api.cleanup(curl);
  return result;
}

/// The provider's error message in a non-200 body, if it has one.
std::string errorMessage(llvm::StringRef body) {
  nlohmann::json json = nlohmann::json::parse(body.begin(), body.end(), nullptr,
                                              /*allow_exceptions=*/false);
  if (json.is_object()) {
    auto error = json.find("error");
    if (error != json.end()) {
      if (error->is_object() && error->contains("message") &&
          (*error)["message"].is_string())
        return (*error)["message"].get<std::string>();
      if (error->is_string())
        return error->get<std::string>();
    }
  }
  return llvm::StringRef(body).trim().take_front(300).str();
}

/// What the user should do about an HTTP status.
std::string advice(int status, Provider provider) {
  const char *keyVar =
      provider == Provider::OpenAI ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
  switch (status) {
  case 401:
  case 403:
    return llvm::formatv("check the API key ({0} or QIMENG_LLM_API_KEY_FILE)",
                         keyVar);
  case 404:
    return "check the base URL and the model name";
  case 400:
    return "the server rejected the request";
  default:
    return "";
  }
}

} // namespace

Client::Client(Config config) : config(std::move(config)) {}

llvm::Expected<std::unique_ptr<Client>> Client::create(Config config) {
  if (!config.configured)
    return llvm::createStringError("no LLM endpoint configured");
  bool offline = config.cacheMode == CacheMode::Offline;
  llvm::StringRef url(config.baseURL);
  if ((!offline || !url.empty()) && !url.starts_with("http://") &&
      !url.starts_with("https://"))
    return llvm::createStringError("LLM base URL '" + url +
                                   "' must start with http:// or https://");
  std::optional<Session> replay;
  if (!config.replayFile.empty()) {
    llvm::Expected<Session> session = readSession(config.replayFile);
    if (!session)
      return session.takeError();
    // The session says which provider and models made it, unless the
    // configuration says otherwise.
    if (!config.sources.count("provider") && !session->provider.empty()) {
      if (session->provider == stringifyProvider(Provider::Anthropic))
        config.provider = Provider::Anthropic;
      else if (session->provider == stringifyProvider(Provider::OpenAI))
        config.provider = Provider::OpenAI;
      else
        return llvm::createStringError(config.replayFile +
                                       ": unknown provider '" +
                                       session->provider + "'");
    }
    if (config.plannerModel.empty())
      config.plannerModel = session->plannerModel;
    if (config.coderModel.empty())
      config.coderModel = session->coderModel;
    replay = std::move(*session);
  }
  if (config.plannerModel.empty())
    return llvm::createStringError(
        "no model configured for " + stringifyProvider(config.provider) +
        (url.empty() ? llvm::Twine() : " at " + url) +
        ": set QIMENG_PLANNER_MODEL (and QIMENG_CODER_MODEL if it differs)");
  std::unique_ptr<Client> client(new Client(std::move(config)));
  const Config &c = client->config;
  client->cache = std::make_unique<Cache>(
      c.cacheMode == CacheMode::Off ? std::string() : c.cacheDir, c.cacheMode);
  if (replay)
    client->cache->addReplay(*replay);
  return client;
}

llvm::Expected<Reply> Client::fetch(const Request &request,
                                    const std::string &where,
                                    RoleStats &stats) {
  Provider provider = config.provider;
  const std::string &model = config.model(request.role);
  std::string url =
      config.baseURL +
      (provider == Provider::OpenAI ? "/chat/completions" : "/v1/messages");
  std::vector<std::string> headers = {"Content-Type: application/json"};
  if (provider == Provider::OpenAI) {
    if (!config.apiKey.empty())
      headers.push_back("Authorization: Bearer " + config.apiKey);
  } else {
    headers.push_back("anthropic-version: 2023-06-01");
    if (!config.apiKey.empty())
      headers.push_back("x-api-key: " + config.apiKey);
  }
  std::string body =
      mlir::qimeng::dumpJSON(buildRequestBody(provider, model, request));
  std::mt19937_64 random(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0, 1);
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  for (unsigned attempt = 1;; ++attempt) {
    HttpResult result = post(url, headers, body, config);
    ++stats.httpAttempts;
    if (result.status == 200) {
      stats.latencySeconds += elapsed();
      llvm::Expected<Reply> reply = parseReplyBody(provider, result.body);
      if (!reply)
        return llvm::createStringError(redact(
            where + ": " + llvm::toString(reply.takeError()), config.apiKey));
      reply->latencySeconds = elapsed();
      reply->attempts = attempt;
      stats.promptTokens += reply->usage.promptTokens;
      stats.completionTokens += reply->usage.completionTokens;
      return reply;
    }
    std::string what = result.status
                           ? llvm::formatv("HTTP {0}: {1}", result.status,
                                           errorMessage(result.body))
                                 .str()
                           : result.transportError;
    RetryDecision decision =
        result.tooLarge || result.fatal
            ? RetryDecision{false, 0, "not retried"}
            : decideRetry(result.status, result.body, result.retryAfter,
                          result.retryAfterMs, attempt, config.maxAttempts,
                          config.retryBaseDelay, config.retryMaxDelay,
                          jitter(random));
    if (!decision.retry) {
      stats.latencySeconds += elapsed();
      std::string hint = advice(result.status, provider);
      return llvm::createStringError(
          redact(where + ": " + what + "; " + decision.reason +
                     (hint.empty() ? std::string() : "; " + hint),
                 config.apiKey));
    }
    std::this_thread::sleep_for(
        std::chrono::duration<double>(decision.delaySeconds));
  }
}

llvm::Expected<Reply> Client::complete(const Request &request) {
  const std::string &model = config.model(request.role);
  std::string where =
      (stringifyProvider(config.provider) +
       (config.baseURL.empty() ? llvm::Twine() : " at " + config.baseURL) +
       " (" + stringifyRole(request.role) + " model '" + model + "')")
          .str();
  RoleStats local;
  local.requests = 1;
  // Adds this call's figures to the role's, whatever the outcome.
  llvm::scope_exit account([&] {
    std::lock_guard<std::mutex> lock(statsMutex);
    RoleStats &total = stats[static_cast<size_t>(request.role)];
    total.requests += local.requests;
    total.cacheHits += local.cacheHits;
    total.httpAttempts += local.httpAttempts;
    total.failures += local.failures;
    total.promptTokens += local.promptTokens;
    total.completionTokens += local.completionTokens;
    total.latencySeconds += local.latencySeconds;
  });
  auto fail = [&](llvm::Error error) -> llvm::Expected<Reply> {
    local.failures = 1;
    return std::move(error);
  };
  if (request.schema) {
    std::vector<std::string> unchecked =
        unsupportedSchemaKeywords(*request.schema);
    if (!unchecked.empty())
      return fail(llvm::createStringError(
          "the request's schema uses keywords the local validator does not "
          "check: " +
          llvm::join(unchecked, "; ")));
  }

  json canonical = canonicalRequest(config.provider, model, request);
  std::string key = cacheKey(canonical);
  auto start = std::chrono::steady_clock::now();
  std::optional<Reply> hit = cache->lookup(key, [](const std::string &what) {
    llvm::errs() << "warning: " << what << "\n";
  });
  Reply reply;
  if (hit) {
    reply = std::move(*hit);
    reply.cached = true;
    reply.attempts = 0;
    reply.latencySeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    local.cacheHits = 1;
  } else if (config.cacheMode == CacheMode::Offline) {
    return fail(llvm::createStringError(
        where + ": no recorded reply for this request (cache key " +
        key.substr(0, 16) +
        ") and the LLM cache is offline, so no request was sent: run once "
        "with an endpoint and --llm-cache=read-write, or replay the session "
        "file that holds it (--llm-replay)"));
  } else {
    llvm::Expected<Reply> fetched = fetch(request, where, local);
    if (!fetched)
      return fail(fetched.takeError());
    reply = std::move(*fetched);
    if (llvm::Error error = cache->store({key, canonical, reply}))
      llvm::errs() << "warning: the LLM reply was not cached: "
                   << llvm::toString(std::move(error)) << "\n";
  }
  reply.cacheKey = key;
  if (request.schema)
    if (llvm::Error error = decodeJSONReply(reply, *request.schema, where))
      return fail(std::move(error));
  return reply;
}

RoleStats Client::getStats(Role role) const {
  std::lock_guard<std::mutex> lock(statsMutex);
  return stats[static_cast<size_t>(role)];
}

json Client::statsJSON() const {
  json out = json::object();
  for (Role role : {Role::Planner, Role::Coder}) {
    RoleStats s = getStats(role);
    out[stringifyRole(role).str()] = {{"requests", s.requests},
                                      {"cache_hits", s.cacheHits},
                                      {"http_attempts", s.httpAttempts},
                                      {"failures", s.failures},
                                      {"prompt_tokens", s.promptTokens},
                                      {"completion_tokens", s.completionTokens},
                                      {"latency_s", s.latencySeconds}};
  }
  Cache::Counters counters = cache->getCounters();
  out["cache"] = {{"mode", stringifyCacheMode(config.cacheMode).str()},
                  {"dir", cache->getDir()},
                  {"hits", counters.hits},
                  {"misses", counters.misses},
                  {"stored", counters.stored},
                  {"corrupted", counters.corrupted}};
  return out;
}

llvm::Error Client::writeSessionFile(llvm::StringRef path) const {
  Session session;
  session.provider = stringifyProvider(config.provider).str();
  session.plannerModel = config.plannerModel;
  session.coderModel = config.coderModel;
  session.entries = cache->used();
  return writeSession(path, session);
}
