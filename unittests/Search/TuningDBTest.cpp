//===- TuningDBTest.cpp - Measured plans, remembered ----------------------===//

#include "QiMeng/Search/TuningDB.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mlir::qimeng;

namespace {

class TuningDBTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("qimeng-db-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  /// A measured candidate of kernel `k` with tile size `tile`.
  static TuningRecord record(char k, int64_t tile, std::optional<double> ms,
                             bool correct = true) {
    TuningRecord r;
    r.key = {std::string(64, k), "NVIDIA H200", "sm_90", "0.8.0"};
    r.kernel = "kernel_" + std::string(1, k);
    r.family = "matmul";
    r.features = llvm::json::Object{{"ops", llvm::json::Array{}}};
    r.plan = llvm::json::Object{
        {"kernel", r.kernel},
        {"provenance", "search"},
        {"actions", llvm::json::Array{llvm::json::Object{
                        {"action", "tile"},
                        {"target", "matmul0"},
                        {"level", "block"},
                        {"sizes", llvm::json::Array{tile, tile, 0}},
                        {"interchange", llvm::json::Array{}}}}}};
    r.source = "neighbour";
    r.compiled = true;
    r.correct = correct;
    r.timeMs = ms;
    r.defaultMs = 2.0;
    r.reward = computeReward(
        true, correct, ms ? std::optional<double>(2.0 / *ms) : std::nullopt);
    r.verdict = correct ? "pass" : "fail";
    r.measuredAt = "2026-12-03T10:00:00Z";
    return r;
  }

  static std::unique_ptr<TuningDB> open(llvm::StringRef file,
                                        bool create = true) {
    llvm::Expected<std::unique_ptr<TuningDB>> db = TuningDB::open(file, create);
    if (!db) {
      ADD_FAILURE() << llvm::toString(db.takeError());
      return nullptr;
    }
    return std::move(*db);
  }

  static std::string firstTile(const TuningRecord &r) {
    const llvm::json::Array *actions =
        r.plan.getAsObject()->getArray("actions");
    return llvm::formatv("{0}", *(*actions)[0].getAsObject()->get("sizes"))
        .str();
  }

  llvm::SmallString<128> dir;
};

TEST(RewardTest, FollowsThePaperShaping) {
  EXPECT_DOUBLE_EQ(computeReward(false, false, std::nullopt).total(), -1.0);
  EXPECT_DOUBLE_EQ(computeReward(false, true, 3.0).total(), -1.0);
  EXPECT_DOUBLE_EQ(computeReward(true, false, 3.0).total(), 0.1 - 0.5);
  Reward correct = computeReward(true, true, 1.5);
  EXPECT_DOUBLE_EQ(correct.compile, 0.1);
  EXPECT_DOUBLE_EQ(correct.correct, 0.5);
  EXPECT_DOUBLE_EQ(correct.speedup, 1.5);
  EXPECT_DOUBLE_EQ(correct.total(), 2.1);
}

TEST_F(TuningDBTest, StoresAndFindsTheFastestCorrectPlan) {
  std::unique_ptr<TuningDB> db = open(path("t.db"));
  ASSERT_TRUE(db);
  llvm::Expected<unsigned> added =
      db->insert({record('a', 64, 2.0), record('a', 128, 1.0),
                  record('a', 32, 0.5, false), record('b', 16, 0.1)});
  ASSERT_TRUE(bool(added)) << llvm::toString(added.takeError());
  EXPECT_EQ(*added, 4u);
  // Write-ahead logging (concurrent readers while one compile writes).
  EXPECT_TRUE(llvm::sys::fs::exists(path("t.db-wal")));
  // The same measurement again is not stored twice.
  llvm::Expected<unsigned> again = db->insert({record('a', 128, 1.0)});
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*again, 0u);

  TuningKey key = record('a', 0, 1.0).key;
  llvm::Expected<std::optional<TuningRecord>> best = db->findBest(key);
  ASSERT_TRUE(bool(best)) << llvm::toString(best.takeError());
  ASSERT_TRUE(best->has_value());
  EXPECT_EQ(firstTile(**best), "[128,128,0]");
  EXPECT_DOUBLE_EQ(*(*best)->timeMs, 1.0);
  EXPECT_DOUBLE_EQ((*best)->getSpeedup(), 2.0);
  EXPECT_DOUBLE_EQ((*best)->reward.total(), 2.6);

  // Any GPU of the chip when the name is not known; not another GPU, chip
  // or version.
  TuningKey anyGpu = key;
  anyGpu.gpu = "";
  ASSERT_TRUE(*db->findBest(anyGpu));
  for (auto change : {&TuningKey::gpu, &TuningKey::chip, &TuningKey::version}) {
    TuningKey other = key;
    other.*change = "other";
    llvm::Expected<std::optional<TuningRecord>> none = db->findBest(other);
    ASSERT_TRUE(bool(none));
    EXPECT_FALSE(none->has_value());
  }
  llvm::Expected<std::vector<TuningRecord>> family =
      db->findBestOfFamily("matmul", key);
  ASSERT_TRUE(bool(family));
  EXPECT_EQ(family->size(), 2u);
}

TEST_F(TuningDBTest, ExportImportRoundTrip) {
  std::unique_ptr<TuningDB> db = open(path("a.db"));
  ASSERT_TRUE(db);
  ASSERT_TRUE(bool(db->insert({record('a', 64, 2.0), record('a', 128, 1.0),
                               record('c', 8, std::nullopt, false)})));
  ASSERT_FALSE(db->exportJSON(path("team.json")));

  std::unique_ptr<TuningDB> other = open(path("b.db"));
  ASSERT_TRUE(other);
  llvm::Expected<unsigned> added = other->importJSON(path("team.json"));
  ASSERT_TRUE(bool(added)) << llvm::toString(added.takeError());
  EXPECT_EQ(*added, 3u);
  // Importing again adds nothing.
  added = other->importJSON(path("team.json"));
  ASSERT_TRUE(bool(added));
  EXPECT_EQ(*added, 0u);
  llvm::Expected<std::vector<TuningRecord>> before = db->getAll();
  llvm::Expected<std::vector<TuningRecord>> after = other->getAll();
  ASSERT_TRUE(before && after);
  ASSERT_EQ(before->size(), after->size());
  for (size_t i = 0; i < before->size(); ++i)
    EXPECT_EQ(llvm::formatv("{0}", toJSON((*before)[i])).str(),
              llvm::formatv("{0}", toJSON((*after)[i])).str());
}

TEST_F(TuningDBTest, ImportRejectsBadRecordsAndNamesThem) {
  std::unique_ptr<TuningDB> db = open(path("t.db"));
  ASSERT_TRUE(db);
  std::string file = path("bad.json");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << R"({"format": "qimeng-tuning", "records": [{"fingerprint": "xyz",
             "gpu": "g", "chip": "sm_90", "version": "1", "plan": {"actions": []},
             "compiled": true, "correct": false}]})";
  }
  llvm::Expected<unsigned> added = db->importJSON(file);
  ASSERT_FALSE(bool(added));
  std::string message = llvm::toString(added.takeError());
  EXPECT_NE(message.find("records[0]"), std::string::npos) << message;
  EXPECT_NE(message.find("fingerprint"), std::string::npos) << message;
  // Nothing was stored.
  EXPECT_TRUE(db->getAll()->empty());
}

TEST_F(TuningDBTest, ConcurrentWritersAllLand) {
  std::string file = path("shared.db");
  ASSERT_TRUE(open(file));
  constexpr int kWriters = 4, kRecords = 25;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      // Each writer has a connection of its own, like separate compiles.
      llvm::Expected<std::unique_ptr<TuningDB>> db =
          TuningDB::open(file, /*create=*/true);
      if (!db) {
        llvm::consumeError(db.takeError());
        ++failures;
        return;
      }
      for (int i = 0; i < kRecords; ++i) {
        llvm::Expected<unsigned> added =
            (*db)->insert({record('a' + w, i + 1, 1.0 + i)});
        if (!added || *added != 1) {
          if (!added)
            llvm::consumeError(added.takeError());
          ++failures;
        }
      }
    });
  for (std::thread &writer : writers)
    writer.join();
  EXPECT_EQ(failures, 0);
  std::unique_ptr<TuningDB> db = open(file);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->getAll()->size(), size_t(kWriters * kRecords));
}

TEST_F(TuningDBTest, DamagedOrForeignFilesAreClearErrors) {
  std::string garbage = path("garbage.db");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(garbage, ec);
    for (int i = 0; i < 200; ++i)
      os << "this is not a database ";
  }
  llvm::Expected<std::unique_ptr<TuningDB>> db = TuningDB::open(garbage, true);
  ASSERT_FALSE(bool(db));
  std::string message = llvm::toString(db.takeError());
  EXPECT_NE(message.find("not a usable SQLite database"), std::string::npos)
      << message;
  EXPECT_NE(message.find("garbage.db"), std::string::npos) << message;

  // A valid database whose first page was overwritten.
  std::string damaged = path("damaged.db");
  {
    std::unique_ptr<TuningDB> ok = open(damaged);
    ASSERT_TRUE(ok);
    std::vector<TuningRecord> many;
    for (int i = 0; i < 200; ++i)
      many.push_back(record('d', i + 1, 1.0 + i));
    ASSERT_TRUE(bool(ok->insert(many)));
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(damaged, ec, llvm::sys::fs::OF_None);
    os.seek(100);
    os << std::string(4000, '\xff');
  }
  db = TuningDB::open(damaged, false);
  ASSERT_FALSE(bool(db));
  message = llvm::toString(db.takeError());
  EXPECT_NE(message.find("damaged.db"), std::string::npos) << message;

  llvm::Expected<std::unique_ptr<TuningDB>> missing =
      TuningDB::open(path("missing.db"), /*create=*/false);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("no such file"),
            std::string::npos);
}

TEST_F(TuningDBTest, ExperienceRecordsCarryStepsAndRewards) {
  TuningRecord r = record('a', 128, 1.0);
  llvm::json::Value line = toExperienceJSON(r);
  const llvm::json::Object *object = line.getAsObject();
  ASSERT_TRUE(object);
  EXPECT_EQ(object->getString("format"), "qimeng-experience/1");
  const llvm::json::Array *steps = object->getArray("steps");
  ASSERT_TRUE(steps);
  ASSERT_EQ(steps->size(), 1u);
  EXPECT_EQ((*steps)[0].getAsObject()->getNumber("reward"), 2.6);
  EXPECT_EQ(object->getObject("reward")->getNumber("speedup"), 2.0);
  EXPECT_EQ(object->getObject("kernel")->getString("family"), "matmul");
}

} // namespace
