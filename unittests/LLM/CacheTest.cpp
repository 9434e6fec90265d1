//===- CacheTest.cpp - Cache keys, entries and sessions -------------------===//

#include "QiMeng/LLM/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir::qimeng::llm;

namespace {

Request request(const std::string &prompt) {
  Request r;
  r.messages = {{"system", "be brief"}, {"user", prompt}};
  return r;
}

std::string key(Provider provider, const std::string &model, const Request &r) {
  return cacheKey(canonicalRequest(provider, model, r));
}

TEST(CacheTest, TheKeyCoversWhatDecidesTheReplyAndNothingElse) {
  Request base = request("tile it");
  std::string k = key(Provider::OpenAI, "m", base);
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, key(Provider::OpenAI, "m", request("tile it")));
  EXPECT_NE(k, key(Provider::Anthropic, "m", base));
  EXPECT_NE(k, key(Provider::OpenAI, "m2", base));
  EXPECT_NE(k, key(Provider::OpenAI, "m", request("tile it!")));
  Request variant = base;
  variant.schema = nlohmann::json{{"type", "object"}};
  EXPECT_NE(k, key(Provider::OpenAI, "m", variant));
  variant = base;
  variant.temperature = 0.2;
  EXPECT_NE(k, key(Provider::OpenAI, "m", variant));
  variant = base;
  variant.seed = 1;
  EXPECT_NE(k, key(Provider::OpenAI, "m", variant));
  variant = base;
  variant.promptVersion = "plan-v2";
  EXPECT_NE(k, key(Provider::OpenAI, "m", variant));
  // The role only picks the model: same model, same key.
  variant = base;
  variant.role = Role::Coder;
  EXPECT_EQ(k, key(Provider::OpenAI, "m", variant));
}

class CacheDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("qimeng-cache", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  CacheEntry entry(const std::string &prompt, const std::string &text) {
    nlohmann::json canonical =
        canonicalRequest(Provider::OpenAI, "m", request(prompt));
    Reply reply;
    reply.text = text;
    reply.usage.promptTokens = 3;
    return {cacheKey(canonical), canonical, reply};
  }

  llvm::SmallString<128> dir;
  std::vector<std::string> warnings;
  std::function<void(const std::string &)> warn = [this](const std::string &w) {
    warnings.push_back(w);
  };
};

TEST_F(CacheDirTest, StoreThenLookUpAndModesThatDoNotWrite) {
  CacheEntry e = entry("a", "reply a");
  Cache readWrite(std::string(dir), CacheMode::ReadWrite);
  EXPECT_FALSE(readWrite.lookup(e.key, warn));
  ASSERT_FALSE(llvm::errorToBool(readWrite.store(e)));
  std::optional<Reply> hit = readWrite.lookup(e.key, warn);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->text, "reply a");
  EXPECT_EQ(hit->usage.promptTokens, 3);
  EXPECT_EQ(readWrite.getCounters().hits, 1u);
  EXPECT_EQ(readWrite.getCounters().misses, 1u);

  CacheEntry b = entry("b", "reply b");
  Cache readOnly(std::string(dir), CacheMode::ReadOnly);
  ASSERT_FALSE(llvm::errorToBool(readOnly.store(b)));
  EXPECT_FALSE(readOnly.lookup(b.key, warn));
  EXPECT_TRUE(readOnly.lookup(e.key, warn));
  // A refresh never reads, but writes.
  Cache refresh(std::string(dir), CacheMode::Refresh);
  EXPECT_FALSE(refresh.lookup(e.key, warn));
  EXPECT_TRUE(warnings.empty());
  // Used entries are remembered for the session, stored or not.
  EXPECT_EQ(readOnly.used().size(), 2u);
}

TEST_F(CacheDirTest, CorruptedEntriesAreMissesAndRewritten) {
  CacheEntry e = entry("a", "reply a");
  Cache cache(std::string(dir), CacheMode::ReadWrite);
  ASSERT_FALSE(llvm::errorToBool(cache.store(e)));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, e.key.substr(0, 2), e.key + ".json");
  for (const char *garbage :
       {"", "{\"format\": \"qimeng-llm-cache\"}", "[1, 2", "\x01\x02\x03"}) {
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      ASSERT_FALSE(ec);
      os << garbage;
    }
    warnings.clear();
    EXPECT_FALSE(cache.lookup(e.key, warn)) << garbage;
    EXPECT_EQ(warnings.size(), 1u) << garbage;
    ASSERT_FALSE(llvm::errorToBool(cache.store(e)));
    EXPECT_TRUE(cache.lookup(e.key, warn)) << garbage;
  }
  EXPECT_EQ(cache.getCounters().corrupted, 4u);
}

TEST_F(CacheDirTest, SessionsRoundTripAndReplayFirst) {
  Session session{"openai", "m", "c", {entry("a", "x"), entry("b", "y")}};
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "session.json");
  ASSERT_FALSE(llvm::errorToBool(writeSession(file, session)));
  llvm::Expected<Session> back = readSession(file);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->coderModel, "c");
  ASSERT_EQ(back->entries.size(), 2u);
  EXPECT_EQ(back->entries[1].reply.text, "y");

  // An offline cache with no directory serves the session only.
  Cache replay("", CacheMode::Offline);
  replay.addReplay(*back);
  EXPECT_EQ(replay.lookup(session.entries[0].key, warn)->text, "x");
  EXPECT_FALSE(replay.lookup(entry("c", "z").key, warn));

  // A session whose entry was edited (text kept, request changed) is
  // refused, naming the entry.
  session.entries[1].request["model"] = "tampered";
  ASSERT_FALSE(llvm::errorToBool(writeSession(file, session)));
  llvm::Expected<Session> tampered = readSession(file);
  ASSERT_FALSE(static_cast<bool>(tampered));
  EXPECT_NE(llvm::toString(tampered.takeError())
                .find("entry 1 is not a cache entry: the key does not match "
                      "the request"),
            std::string::npos);
}

} // namespace
