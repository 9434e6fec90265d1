//===- Config.cpp - Which LLM to talk to, and how -------------------------===//

#include "QiMeng/LLM/Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sys/stat.h>

using namespace mlir::qimeng::llm;

llvm::StringRef mlir::qimeng::llm::stringifyProvider(Provider provider) {
  return provider == Provider::OpenAI ? "openai" : "anthropic";
}

llvm::StringRef mlir::qimeng::llm::stringifyRole(Role role) {
  return role == Role::Planner ? "planner" : "coder";
}

llvm::StringRef mlir::qimeng::llm::stringifyCacheMode(CacheMode mode) {
  switch (mode) {
  case CacheMode::ReadWrite:
    return "read-write";
  case CacheMode::ReadOnly:
    return "read-only";
  case CacheMode::Offline:
    return "offline";
  case CacheMode::Refresh:
    return "refresh";
  case CacheMode::Off:
    return "off";
  }
  return "off";
}

std::optional<CacheMode>
mlir::qimeng::llm::parseCacheMode(llvm::StringRef name) {
  for (CacheMode mode :
       {CacheMode::ReadWrite, CacheMode::ReadOnly, CacheMode::Offline,
        CacheMode::Refresh, CacheMode::Off})
    if (name == stringifyCacheMode(mode))
      return mode;
  return std::nullopt;
}

Getenv mlir::qimeng::llm::processEnvironment() {
  return [](llvm::StringRef name) -> std::optional<std::string> {
    const char *value = std::getenv(name.str().c_str());
    if (!value || !*value)
      return std::nullopt;
    return std::string(value);
  };
}

std::string mlir::qimeng::llm::redact(llvm::StringRef text,
                                      llvm::StringRef secret) {
  if (secret.size() < 8)
    return text.str();
  std::string out;
  while (true) {
    size_t at = text.find(secret);
    if (at == llvm::StringRef::npos)
      break;
    out += text.take_front(at).str() + "[REDACTED]";
    text = text.drop_front(at + secret.size());
  }
  return out + text.str();
}

/// $<xdgVar>/qimeng/<leaf>, else $HOME/<homeDir>/qimeng/<leaf>, else "".
static std::string xdgPath(const Getenv &getenv, const char *xdgVar,
                           const char *homeDir, const char *leaf) {
  llvm::SmallString<128> path;
  if (std::optional<std::string> xdg = getenv(xdgVar)) {
    path = *xdg;
  } else if (std::optional<std::string> home = getenv("HOME")) {
    path = *home;
    llvm::sys::path::append(path, homeDir);
  } else {
    return {};
  }
  llvm::sys::path::append(path, "qimeng", leaf);
  return std::string(path);
}

static llvm::Expected<Provider> parseProvider(llvm::StringRef name,
                                              llvm::StringRef from) {
  if (name == "openai")
    return Provider::OpenAI;
  if (name == "anthropic")
    return Provider::Anthropic;
  return llvm::createStringError("unknown LLM provider '" + name + "' (from " +
                                 from + "); expected openai or anthropic");
}

/// Reads an API key from a file only its owner may read.
static llvm::Expected<std::string> readKeyFile(llvm::StringRef path) {
  struct stat info;
  if (::stat(path.str().c_str(), &info) != 0)
    return llvm::createStringError("cannot read the API key file " + path);
  if (info.st_mode & 077)
    return llvm::createStringError(
        "the API key file " + path +
        " can be read by others: make it private (chmod 600)");
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return llvm::createStringError("cannot read the API key file " + path);
  return (*file)->getBuffer().trim().str();
}

llvm::Expected<Config> mlir::qimeng::llm::loadConfig(const ConfigFlags &flags,
                                                     const Getenv &getenv) {
  Config config;
  // Lowest precedence first; each later source overrides.
  std::string provider, providerFrom;
  auto set = [&](std::string &slot, const std::string &key,
                 std::optional<std::string> value, llvm::StringRef from) {
    if (value && !value->empty()) {
      slot = *value;
      config.sources[key] = from.str();
    }
  };

  std::string cacheMode;
  config.cacheDir = xdgPath(getenv, "XDG_CACHE_HOME", ".cache", "llm");
  std::string file =
      xdgPath(getenv, "XDG_CONFIG_HOME", ".config", "config.json");
  if (!file.empty() && llvm::sys::fs::exists(file)) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer)
      return llvm::createStringError("cannot read " + file);
    nlohmann::json json = nlohmann::json::parse(
        (*buffer)->getBuffer().begin(), (*buffer)->getBuffer().end(), nullptr,
        /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object())
      return llvm::createStringError(file + " is not a JSON object");
    if (json.contains("api_key"))
      return llvm::createStringError(
          file + " holds an API key: keys belong in the environment "
                 "(OPENAI_API_KEY, ANTHROPIC_API_KEY) or a private key file "
                 "(QIMENG_LLM_API_KEY_FILE)");
    auto string = [&](const char *key) -> std::optional<std::string> {
      auto it = json.find(key);
      if (it == json.end() || !it->is_string())
        return std::nullopt;
      return it->get<std::string>();
    };
    set(provider, "provider", string("provider"), "config.json");
    set(config.baseURL, "base_url", string("base_url"), "config.json");
    set(config.plannerModel, "planner_model", string("planner_model"),
        "config.json");
    set(config.coderModel, "coder_model", string("coder_model"), "config.json");
    set(cacheMode, "cache", string("cache"), "config.json");
    set(config.cacheDir, "cache_dir", string("cache_dir"), "config.json");
    if (auto it = json.find("timeout_s"); it != json.end() && it->is_number())
      config.totalTimeout = it->get<double>();
    if (auto it = json.find("max_attempts");
        it != json.end() && it->is_number_unsigned())
      config.maxAttempts = it->get<unsigned>();
  }

  // The environment: the provider's own variables, then QiMeng's.
  std::optional<std::string> openaiURL = getenv("OPENAI_BASE_URL"),
                             anthropicURL = getenv("ANTHROPIC_BASE_URL"),
                             openaiKey = getenv("OPENAI_API_KEY"),
                             anthropicKey = getenv("ANTHROPIC_API_KEY");
  if ((anthropicURL || anthropicKey) && !(openaiURL || openaiKey))
    set(provider, "provider", std::string("anthropic"),
        anthropicURL ? "env ANTHROPIC_BASE_URL" : "env ANTHROPIC_API_KEY");
  else if (openaiURL || openaiKey)
    set(provider, "provider", std::string("openai"),
        openaiURL ? "env OPENAI_BASE_URL" : "env OPENAI_API_KEY");
  set(provider, "provider", getenv("QIMENG_LLM_PROVIDER"),
      "env QIMENG_LLM_PROVIDER");
  set(provider, "provider", flags.provider, "flag");
  if (!provider.empty()) {
    llvm::Expected<Provider> parsed =
        parseProvider(provider, config.sources["provider"]);
    if (!parsed)
      return parsed.takeError();
    config.provider = *parsed;
  }
  bool anthropic = config.provider == Provider::Anthropic;

  set(config.baseURL, "base_url", anthropic ? anthropicURL : openaiURL,
      anthropic ? "env ANTHROPIC_BASE_URL" : "env OPENAI_BASE_URL");
  // QiMeng's own variable over what came before, the flag over both.
  auto envThenFlag = [&](std::string &slot, const std::string &key,
                         const char *var, const std::string &flag) {
    set(slot, key, getenv(var), std::string("env ") + var);
    set(slot, key, flag, "flag");
  };
  envThenFlag(config.baseURL, "base_url", "QIMENG_LLM_BASE_URL", flags.baseURL);
  envThenFlag(config.plannerModel, "planner_model", "QIMENG_PLANNER_MODEL",
              flags.plannerModel);
  envThenFlag(config.coderModel, "coder_model", "QIMENG_CODER_MODEL",
              flags.coderModel);
  envThenFlag(cacheMode, "cache", "QIMENG_LLM_CACHE", flags.cacheMode);
  envThenFlag(config.cacheDir, "cache_dir", "QIMENG_LLM_CACHE_DIR",
              flags.cacheDir);
  envThenFlag(config.replayFile, "replay", "QIMENG_LLM_REPLAY",
              flags.replayFile);
  envThenFlag(config.recordFile, "record", "QIMENG_LLM_RECORD",
              flags.recordFile);
  if (!cacheMode.empty()) {
    std::optional<CacheMode> mode = parseCacheMode(cacheMode);
    if (!mode)
      return llvm::createStringError(
          "unknown LLM cache mode '" + cacheMode + "' (from " +
          config.sources["cache"] +
          "); expected read-write, read-only, offline, refresh or off");
    config.cacheMode = *mode;
  } else if (!config.replayFile.empty()) {
    // A replay file alone means an offline rebuild.
    config.cacheMode = CacheMode::Offline;
    config.sources["cache"] = "implied by the replay file";
  }
  if (flags.totalTimeout)
    config.totalTimeout = *flags.totalTimeout;
  if (flags.maxAttempts)
    config.maxAttempts = *flags.maxAttempts;

  // The key: the provider's variable, or a private file.
  std::optional<std::string> key = anthropic ? anthropicKey : openaiKey;
  if (std::optional<std::string> keyFile = getenv("QIMENG_LLM_API_KEY_FILE")) {
    llvm::Expected<std::string> fromFile = readKeyFile(*keyFile);
    if (!fromFile)
      return fromFile.takeError();
    key = *fromFile;
  }
  config.apiKey = key.value_or("");

  // A key alone means the provider's public endpoint.
  if (config.baseURL.empty() && !config.apiKey.empty()) {
    config.baseURL =
        anthropic ? "https://api.anthropic.com" : "https://api.openai.com/v1";
    config.sources["base_url"] = "default for the key";
  }
  while (!config.baseURL.empty() && config.baseURL.back() == '/')
    config.baseURL.pop_back();
  // One model serves both roles when only one is set.
  if (config.coderModel.empty())
    config.coderModel = config.plannerModel;
  if (config.plannerModel.empty())
    config.plannerModel = config.coderModel;
  // Offline needs no endpoint: the replies come from the cache or the
  // replay file.
  config.configured =
      !config.baseURL.empty() ||
      (config.cacheMode == CacheMode::Offline &&
       (!config.replayFile.empty() || !config.plannerModel.empty()));
  return config;
}
