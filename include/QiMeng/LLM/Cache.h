//===- Cache.h - Content-addressed LLM replies for reproducible builds ----===//
//
// A reply is stored under the sha256 of its canonical request: provider,
// model, messages, schema, sampling options and prompt-template version (no
// base URL, no key, no headers), one JSON file per entry in
// $XDG_CACHE_HOME/qimeng/llm/<first two hex digits>/<key>.json, written to a
// temporary file and renamed so concurrent compiles never see half an entry.
// An entry that does not read back (corrupted, truncated, another key) is
// ignored and rewritten.
//
// A session (the entries one run used) can be written to one file and
// replayed elsewhere: a project checks in the LLM replies behind its
// kernels and rebuilds them offline, byte for byte.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_CACHE_H
#define QIMENG_LLM_CACHE_H

#include "QiMeng/LLM/Client.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::qimeng::llm {

/// Bumped when the canonical request or the entry format changes.
constexpr int kCacheFormatVersion = 1;

/// What the cache key hashes: everything that decides the reply.
nlohmann::json canonicalRequest(Provider provider, const std::string &model,
                                const Request &request);

/// The hex sha256 of a canonical request.
std::string cacheKey(const nlohmann::json &canonical);

/// One stored exchange.
struct CacheEntry {
  std::string key;
  nlohmann::json request;
  Reply reply;
};

nlohmann::json entryToJSON(const CacheEntry &entry);
/// Errors when `json` is not an entry of this format version.
llvm::Expected<CacheEntry> entryFromJSON(const nlohmann::json &json);

/// A session file: provider and models of the run, and its entries.
struct Session {
  std::string provider, plannerModel, coderModel;
  std::vector<CacheEntry> entries;
};

llvm::Error writeSession(llvm::StringRef path, const Session &session);
llvm::Expected<Session> readSession(llvm::StringRef path);

class Cache {
public:
  /// A cache in `dir` (no directory: only the replay layer).
  Cache(std::string dir, CacheMode mode) : dir(std::move(dir)), mode(mode) {}

  /// Entries of a session file, consulted before the directory.
  void addReplay(const Session &session);

  /// The stored reply for `key`, or none. A corrupted entry counts as a
  /// miss, is reported once through `warn`, and is rewritten by the next
  /// store.
  std::optional<Reply>
  lookup(const std::string &key,
         const std::function<void(const std::string &)> &warn);

  /// Stores `entry` (atomically) when the mode writes.
  llvm::Error store(const CacheEntry &entry);

  /// Every entry this object looked up or stored, in first-use order.
  std::vector<CacheEntry> used() const;

  /// Every readable entry of the directory, by key.
  llvm::Expected<std::vector<CacheEntry>> readAll() const;

  CacheMode getMode() const { return mode; }
  const std::string &getDir() const { return dir; }

  struct Counters {
    unsigned hits = 0, misses = 0, stored = 0, corrupted = 0;
  };
  Counters getCounters() const;

private:
  std::string entryPath(const std::string &key) const;
  void remember(const CacheEntry &entry);

  std::string dir;
  CacheMode mode;
  std::map<std::string, CacheEntry> replay;
  mutable std::mutex mutex;
  std::vector<CacheEntry> usedEntries;
  std::map<std::string, size_t> usedIndex;
  Counters counters;
};

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_CACHE_H
