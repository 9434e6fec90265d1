//===- fuzz-llm-cache.cpp - LLM cache entries and sessions read back ------===//
//
// The bytes are a file of the LLM reply cache, read the ways QiMeng reads
// one:
//   - a cache entry, found where the cache looks for two requests' replies
//     ($XDG_CACHE_HOME/qimeng/llm/<2 hex>/<key>.json), by Cache::lookup and
//     Cache::readAll (qimeng-llm --export-cache);
//   - a recorded session (--llm-record), by readSession and replayed through
//     a Cache, and through a Client made with --llm-replay and the cache
//     offline, which answers both requests from it (checking the reply
//     against the request's schema) or says it cannot.
// A session that reads must write back and read again, and the session a
// replaying client records must read back: what one run records, the next
// replays.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "QiMeng/LLM/Cache.h"
#include "QiMeng/LLM/Client.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::llm;

namespace {
/// The model of both roles in the requests below.
constexpr const char *kModel = "m";

struct State {
  State() {
    // `qimeng-llm --prompt=a --llm-planner-model=m` at OpenAI: its key is
    // pinned in test/Tools/qimeng-llm/cache.test.
    plain.messages = {{"user", "a"}};
    // The same with a schema and the coder's role (--role=coder
    // --schema=...): its reply is decoded and checked.
    withSchema = plain;
    withSchema.role = Role::Coder;
    withSchema.schema =
        nlohmann::json{{"type", "object"},
                       {"required", {"answer"}},
                       {"additionalProperties", false},
                       {"properties", {{"answer", {{"type", "string"}}}}}};
    for (const Request *request : {&plain, &withSchema}) {
      std::string key =
          cacheKey(canonicalRequest(Provider::OpenAI, kModel, *request));
      llvm::SmallString<128> path(dir);
      llvm::sys::path::append(path, key.substr(0, 2), key + ".json");
      keys.push_back(key);
      entryPaths.push_back(std::string(path));
    }
  }

  std::string dir = fuzz::getScratchPath("cache");
  std::string session = fuzz::getScratchPath("session.json");
  std::string written = fuzz::getScratchPath("written.json");
  Request plain, withSchema;
  std::vector<std::string> keys, entryPaths;
};

State &getState() {
  static State state;
  return state;
}

void ignore(const std::string &) {}

/// Writes `session` and reads it back: it must read.
void roundTrip(const Session &session, llvm::StringRef what) {
  const std::string &path = getState().written;
  if (llvm::Error error = writeSession(path, session))
    fuzz::reportBug(what +
                    " does not write: " + llvm::toString(std::move(error)));
  llvm::Expected<Session> again = readSession(path);
  if (!again)
    fuzz::reportBug(
        what + " does not read back: " + llvm::toString(again.takeError()));
  if (again->entries.size() != session.entries.size())
    fuzz::reportBug(what + " reads back with another number of entries");
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::clearLLMEnvironment();
  (void)getState();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  State &state = getState();
  llvm::StringRef bytes = fuzz::asText(data, size);
  llvm::sys::fs::remove_directories(state.dir);

  // A cache entry where each request's reply would be.
  for (const std::string &path : state.entryPaths) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    fuzz::writeScratchFile(path, bytes);
  }
  {
    Cache cache(state.dir, CacheMode::ReadOnly);
    for (const std::string &key : state.keys)
      (void)cache.lookup(key, ignore);
    if (llvm::Expected<std::vector<CacheEntry>> all = cache.readAll()) {
      for (const CacheEntry &entry : *all)
        (void)dumpJSON(entryToJSON(entry));
    } else {
      llvm::consumeError(all.takeError());
    }
  }

  // A recorded session.
  fuzz::writeScratchFile(state.session, bytes);
  if (llvm::Expected<Session> session = readSession(state.session)) {
    Cache replay("", CacheMode::Offline);
    replay.addReplay(*session);
    for (const std::string &key : state.keys)
      (void)replay.lookup(key, ignore);
    roundTrip(*session, "a session that reads");
  } else {
    llvm::consumeError(session.takeError());
  }

  // --llm-replay with the cache offline: no request is ever sent.
  Config config;
  config.configured = true;
  config.cacheMode = CacheMode::Offline;
  config.cacheDir = state.dir;
  config.replayFile = state.session;
  config.plannerModel = config.coderModel = kModel;
  llvm::Expected<std::unique_ptr<Client>> client = Client::create(config);
  if (!client) {
    llvm::consumeError(client.takeError());
    return 0;
  }
  for (const Request *request : {&state.plain, &state.withSchema}) {
    llvm::Expected<Reply> reply = (*client)->complete(*request);
    if (!reply) {
      Request next = *request;
      (void)takeReplyFailure(reply.takeError(), next);
      (void)cacheKey(canonicalRequest(Provider::OpenAI, kModel, next));
      continue;
    }
    if (request->schema && !reply->json)
      fuzz::reportBug("a reply to a request with a schema has no JSON");
  }
  (void)dumpJSON((*client)->statsJSON());
  if (llvm::Error error = (*client)->writeSessionFile(state.written))
    fuzz::reportBug("the replayed session does not write: " +
                    llvm::toString(std::move(error)));
  llvm::Expected<Session> recorded = readSession(state.written);
  if (!recorded)
    fuzz::reportBug("the replayed session does not read back: " +
                    llvm::toString(recorded.takeError()));
  return 0;
}
