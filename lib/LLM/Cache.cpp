//===- Cache.cpp - Content-addressed LLM replies --------------------------===//

#include "QiMeng/LLM/Cache.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::qimeng::llm;
using nlohmann::json;

static constexpr const char *kEntryFormat = "qimeng-llm-cache";
static constexpr const char *kSessionFormat = "qimeng-llm-session";

json mlir::qimeng::llm::canonicalRequest(Provider provider,
                                         const std::string &model,
                                         const Request &request) {
  json messages = json::array();
  for (const Message &m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  // nlohmann::json keeps object keys sorted, so dump() is canonical.
  json canonical = {{"format", kCacheFormatVersion},
                    {"provider", stringifyProvider(provider).str()},
                    {"model", model},
                    {"messages", std::move(messages)},
                    {"prompt_version", request.promptVersion}};
  if (request.schema) {
    canonical["schema"] = *request.schema;
    canonical["schema_name"] = request.schemaName;
  }
  if (request.temperature)
    canonical["temperature"] = *request.temperature;
  if (request.seed)
    canonical["seed"] = *request.seed;
  if (request.maxTokens)
    canonical["max_tokens"] = *request.maxTokens;
  return canonical;
}

std::string mlir::qimeng::llm::cacheKey(const json &canonical) {
  std::string text = mlir::qimeng::dumpJSON(canonical);
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

json mlir::qimeng::llm::entryToJSON(const CacheEntry &entry) {
  return {{"format", kEntryFormat},
          {"version", kCacheFormatVersion},
          {"key", entry.key},
          {"request", entry.request},
          {"reply",
           {{"text", entry.reply.text},
            {"finish_reason", entry.reply.finishReason},
            {"model", entry.reply.model},
            {"usage",
             {{"prompt_tokens", entry.reply.usage.promptTokens},
              {"completion_tokens", entry.reply.usage.completionTokens}}}}}};
}

/// The string at `key` of `object`, or none.
static std::optional<std::string> stringField(const json &object,
                                              const char *key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

llvm::Expected<CacheEntry> mlir::qimeng::llm::entryFromJSON(const json &json) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError("not a cache entry: " + why);
  };
  if (!json.is_object() || stringField(json, "format") != kEntryFormat)
    return fail("no \"format\": \"qimeng-llm-cache\"");
  auto version = json.find("version");
  if (version == json.end() || !version->is_number_integer() ||
      version->get<int>() != kCacheFormatVersion)
    return fail("format version is not " + llvm::Twine(kCacheFormatVersion));
  CacheEntry entry;
  std::optional<std::string> key = stringField(json, "key");
  auto request = json.find("request");
  auto reply = json.find("reply");
  if (!key || request == json.end() || !request->is_object() ||
      reply == json.end() || !reply->is_object())
    return fail("key, request or reply missing");
  entry.key = *key;
  entry.request = *request;
  if (cacheKey(entry.request) != entry.key)
    return fail("the key does not match the request");
  std::optional<std::string> text = stringField(*reply, "text");
  if (!text)
    return fail("the reply has no text");
  entry.reply.text = *text;
  entry.reply.finishReason = stringField(*reply, "finish_reason").value_or("");
  entry.reply.model = stringField(*reply, "model").value_or("");
  if (auto usage = reply->find("usage");
      usage != reply->end() && usage->is_object()) {
    auto count = [&](const char *name) -> int64_t {
      auto it = usage->find(name);
      return it != usage->end() && it->is_number_integer() ? it->get<int64_t>()
                                                           : 0;
    };
    entry.reply.usage.promptTokens = count("prompt_tokens");
    entry.reply.usage.completionTokens = count("completion_tokens");
  }
  return entry;
}

/// Writes `value` to `path` through a temporary file and a rename.
static llvm::Error writeJSONAtomically(llvm::StringRef path,
                                       const json &value) {
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (!parent.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(parent))
      return llvm::createStringError("cannot create " + parent + ": " +
                                     ec.message());
  std::string text = mlir::qimeng::dumpJSON(value, 1) + "\n";
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) -> llvm::Error {
    os << text;
    return llvm::Error::success();
  });
}

/// Reads `path` as JSON; errors name the file.
static llvm::Expected<json> readJSONFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path + ": " +
                                   buffer.getError().message());
  json value = json::parse((*buffer)->getBuffer().begin(),
                           (*buffer)->getBuffer().end(), nullptr,
                           /*allow_exceptions=*/false);
  if (value.is_discarded())
    return llvm::createStringError(path + " is not valid JSON");
  return value;
}

llvm::Error mlir::qimeng::llm::writeSession(llvm::StringRef path,
                                            const Session &session) {
  json entries = json::array();
  for (const CacheEntry &entry : session.entries)
    entries.push_back(entryToJSON(entry));
  return writeJSONAtomically(path, {{"format", kSessionFormat},
                                    {"version", kCacheFormatVersion},
                                    {"provider", session.provider},
                                    {"planner_model", session.plannerModel},
                                    {"coder_model", session.coderModel},
                                    {"entries", std::move(entries)}});
}

llvm::Expected<Session> mlir::qimeng::llm::readSession(llvm::StringRef path) {
  llvm::Expected<json> value = readJSONFile(path);
  if (!value)
    return value.takeError();
  if (!value->is_object() || stringField(*value, "format") != kSessionFormat)
    return llvm::createStringError(
        path + " is not a QiMeng LLM session (no \"format\": \"" +
        kSessionFormat + "\")");
  Session session;
  session.provider = stringField(*value, "provider").value_or("");
  session.plannerModel = stringField(*value, "planner_model").value_or("");
  session.coderModel = stringField(*value, "coder_model").value_or("");
  auto entries = value->find("entries");
  if (entries == value->end() || !entries->is_array())
    return llvm::createStringError(path + " has no \"entries\" list");
  for (size_t i = 0; i < entries->size(); ++i) {
    llvm::Expected<CacheEntry> entry = entryFromJSON((*entries)[i]);
    if (!entry)
      return llvm::createStringError(path + ": entry " + llvm::Twine(i) +
                                     " is " +
                                     llvm::toString(entry.takeError()));
    session.entries.push_back(std::move(*entry));
  }
  return session;
}

void Cache::addReplay(const Session &session) {
  for (const CacheEntry &entry : session.entries)
    replay[entry.key] = entry;
}

std::string Cache::entryPath(const std::string &key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key.substr(0, 2), key + ".json");
  return std::string(path);
}

void Cache::remember(const CacheEntry &entry) {
  // Called with the mutex held.
  auto [it, inserted] = usedIndex.try_emplace(entry.key, usedEntries.size());
  if (inserted)
    usedEntries.push_back(entry);
  else
    usedEntries[it->second] = entry;
}

std::optional<Reply>
Cache::lookup(const std::string &key,
              const std::function<void(const std::string &)> &warn) {
  if (mode == CacheMode::Off || mode == CacheMode::Refresh)
    return std::nullopt;
  std::optional<CacheEntry> found;
  if (auto it = replay.find(key); it != replay.end())
    found = it->second;
  std::string path = dir.empty() ? std::string() : entryPath(key);
  bool corrupted = false;
  if (!found && !path.empty() && llvm::sys::fs::exists(path)) {
    llvm::Expected<json> value = readJSONFile(path);
    llvm::Expected<CacheEntry> entry =
        value ? entryFromJSON(*value) : value.takeError();
    if (entry && entry->key == key) {
      found = std::move(*entry);
    } else {
      corrupted = true;
      std::string why =
          entry ? "it holds another key" : llvm::toString(entry.takeError());
      warn("ignoring the corrupted LLM cache entry " + path + " (" + why +
           "); the reply will be asked for again and the entry rewritten");
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  counters.corrupted += corrupted;
  if (!found) {
    ++counters.misses;
    return std::nullopt;
  }
  ++counters.hits;
  remember(*found);
  return found->reply;
}

llvm::Error Cache::store(const CacheEntry &entry) {
  bool writes = mode == CacheMode::ReadWrite || mode == CacheMode::Refresh;
  if (writes && !dir.empty())
    if (llvm::Error error =
            writeJSONAtomically(entryPath(entry.key), entryToJSON(entry)))
      return error;
  std::lock_guard<std::mutex> lock(mutex);
  counters.stored += writes && !dir.empty();
  remember(entry);
  return llvm::Error::success();
}

std::vector<CacheEntry> Cache::used() const {
  std::lock_guard<std::mutex> lock(mutex);
  return usedEntries;
}

Cache::Counters Cache::getCounters() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

llvm::Expected<std::vector<CacheEntry>> Cache::readAll() const {
  std::vector<CacheEntry> entries;
  if (dir.empty() || !llvm::sys::fs::is_directory(dir))
    return entries;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    llvm::Expected<json> value = readJSONFile(it->path());
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    llvm::Expected<CacheEntry> entry = entryFromJSON(*value);
    if (!entry) {
      llvm::consumeError(entry.takeError());
      continue;
    }
    entries.push_back(std::move(*entry));
  }
  if (ec)
    return llvm::createStringError("cannot list " + dir + ": " + ec.message());
  llvm::sort(entries, [](const CacheEntry &a, const CacheEntry &b) {
    return a.key < b.key;
  });
  return entries;
}
