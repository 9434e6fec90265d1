//===- Config.h - Which LLM to talk to, and how -----------------*- C++ -*-===//
//
// Precedence: command-line flags, then the environment, then the config file
// ($XDG_CONFIG_HOME/qimeng/config.json, else ~/.config/qimeng/config.json).
// No endpoint anywhere means "no LLM": the built-in paths run; that is not
// an error. API keys come from the environment or a key file that only its
// owner can read (0600), never from the config file or flags.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_CONFIG_H
#define QIMENG_LLM_CONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace mlir::qimeng::llm {

enum class Provider { OpenAI, Anthropic };
enum class Role { Planner, Coder };

/// How the reply cache (Cache.h) is used.
/// read-write (default): hits are used, misses asked and stored;
/// read-only: hits are used, nothing is stored;
/// offline: hits only, a miss is an error and no request is ever sent;
/// refresh: always asks, and overwrites the stored reply;
/// off: no cache.
enum class CacheMode { ReadWrite, ReadOnly, Offline, Refresh, Off };

llvm::StringRef stringifyCacheMode(CacheMode mode);
std::optional<CacheMode> parseCacheMode(llvm::StringRef name);

llvm::StringRef stringifyProvider(Provider provider);
llvm::StringRef stringifyRole(Role role);

struct Config {
  /// False: no LLM (the built-in paths run): no endpoint is configured, and
  /// no offline replay either.
  bool configured = false;
  Provider provider = Provider::OpenAI;
  /// e.g. https://api.openai.com/v1, http://localhost:8000/v1,
  /// https://api.anthropic.com (the client appends /chat/completions or
  /// /v1/messages).
  std::string baseURL;
  std::string plannerModel, coderModel;
  /// Empty for local servers that need none.
  std::string apiKey;
  double connectTimeout = 10, totalTimeout = 120;
  unsigned maxAttempts = 4;
  double retryBaseDelay = 1, retryMaxDelay = 60;
  /// Replies larger than this are refused.
  size_t maxReplyBytes = 8 << 20;
  /// The reply cache (Cache.h): a mode name and its directory ("" = none
  /// found: $XDG_CACHE_HOME and $HOME unset).
  CacheMode cacheMode = CacheMode::ReadWrite;
  std::string cacheDir;
  /// A session file to replay (consulted before the cache directory), and
  /// one to write the session to.
  std::string replayFile, recordFile;
  /// Where each setting came from ("flag", "env OPENAI_BASE_URL",
  /// "config.json"), for `--llm-config` style reports.
  std::map<std::string, std::string> sources;

  const std::string &model(Role role) const {
    return role == Role::Planner ? plannerModel : coderModel;
  }
};

/// Settings given on the command line (highest precedence); empty = unset.
struct ConfigFlags {
  std::string provider, baseURL, plannerModel, coderModel;
  std::string cacheMode, cacheDir, replayFile, recordFile;
  std::optional<double> totalTimeout;
  std::optional<unsigned> maxAttempts;
};

/// The environment, injectable for tests.
using Getenv = std::function<std::optional<std::string>(llvm::StringRef)>;
Getenv processEnvironment();

/// Resolves the configuration. Errors: an unknown provider, a config file
/// that is not valid JSON or holds a key, a key file readable by others.
llvm::Expected<Config> loadConfig(const ConfigFlags &flags,
                                  const Getenv &getenv = processEnvironment());

/// `text` with every occurrence of `secret` (when it is at least 8
/// characters) replaced by "[REDACTED]".
std::string redact(llvm::StringRef text, llvm::StringRef secret);

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_CONFIG_H
