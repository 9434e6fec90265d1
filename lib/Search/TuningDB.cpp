//===- TuningDB.cpp - Measured plans, remembered --------------------------===//

#include "QiMeng/Search/TuningDB.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::qimeng;

/// Written into the database's user_version: a file with another value is
/// not a QiMeng tuning database of this layout.
static constexpr int kSchemaVersion = 1;
/// How long a writer waits for another compile's transaction.
static constexpr int kBusyTimeoutMs = 30000;

Reward mlir::qimeng::computeReward(bool compiled, bool correct,
                                   std::optional<double> speedup) {
  Reward reward;
  if (!compiled) {
    reward.compile = -1.0;
    return reward;
  }
  reward.compile = 0.1;
  reward.correct = correct ? 0.5 : -0.5;
  if (correct && speedup)
    reward.speedup = *speedup;
  return reward;
}

//===----------------------------------------------------------------------===//
// JSON form
//===----------------------------------------------------------------------===//

static llvm::json::Value optionalNumber(std::optional<double> value) {
  return value ? llvm::json::Value(*value) : llvm::json::Value(nullptr);
}

llvm::json::Value mlir::qimeng::toJSON(const Reward &reward) {
  return llvm::json::Object{{"compile", reward.compile},
                            {"correct", reward.correct},
                            {"speedup", reward.speedup},
                            {"total", reward.total()}};
}

llvm::json::Value mlir::qimeng::toJSON(const TuningRecord &record) {
  return llvm::json::Object{{"fingerprint", record.key.fingerprint},
                            {"gpu", record.key.gpu},
                            {"chip", record.key.chip},
                            {"version", record.key.version},
                            {"kernel", record.kernel},
                            {"family", record.family},
                            {"features", record.features},
                            {"plan", record.plan},
                            {"source", record.source},
                            {"compiled", record.compiled},
                            {"correct", record.correct},
                            {"time_ms", optionalNumber(record.timeMs)},
                            {"default_ms", optionalNumber(record.defaultMs)},
                            {"reward", toJSON(record.reward)},
                            {"verdict", record.verdict},
                            {"reason", record.reason},
                            {"measured_at", record.measuredAt}};
}

llvm::Expected<TuningRecord>
mlir::qimeng::tuningRecordFromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError("a tuning record must be a JSON object");
  TuningRecord record;
  auto string = [&](llvm::StringRef name, std::string &out,
                    bool required) -> llvm::Error {
    std::optional<llvm::StringRef> found = object->getString(name);
    if (!found) {
      if (!required && !object->get(name))
        return llvm::Error::success();
      return llvm::createStringError("'" + name + "' must be a string");
    }
    out = found->str();
    return llvm::Error::success();
  };
  for (auto [name, out, required] :
       {std::make_tuple("fingerprint", &record.key.fingerprint, true),
        std::make_tuple("gpu", &record.key.gpu, true),
        std::make_tuple("chip", &record.key.chip, true),
        std::make_tuple("version", &record.key.version, true),
        std::make_tuple("kernel", &record.kernel, false),
        std::make_tuple("family", &record.family, false),
        std::make_tuple("source", &record.source, false),
        std::make_tuple("verdict", &record.verdict, false),
        std::make_tuple("reason", &record.reason, false),
        std::make_tuple("measured_at", &record.measuredAt, false)})
    if (llvm::Error err = string(name, *out, required))
      return std::move(err);
  if (record.key.fingerprint.size() != 64 ||
      !llvm::all_of(record.key.fingerprint, llvm::isHexDigit))
    return llvm::createStringError("'fingerprint' must be 64 hex digits");
  const llvm::json::Object *plan = object->getObject("plan");
  if (!plan || !plan->getArray("actions"))
    return llvm::createStringError(
        "'plan' must be a plan's JSON form (with 'actions')");
  record.plan = llvm::json::Object(*plan);
  if (const llvm::json::Value *features = object->get("features"))
    record.features = *features;
  std::optional<bool> compiled = object->getBoolean("compiled");
  std::optional<bool> correct = object->getBoolean("correct");
  if (!compiled || !correct)
    return llvm::createStringError("'compiled' and 'correct' must be booleans");
  record.compiled = *compiled;
  record.correct = *correct && *compiled;
  for (auto [name, out] : {std::make_pair("time_ms", &record.timeMs),
                           std::make_pair("default_ms", &record.defaultMs)}) {
    const llvm::json::Value *number = object->get(name);
    if (!number || number->getAsNull())
      continue;
    std::optional<double> ms = number->getAsNumber();
    if (!ms || !std::isfinite(*ms) || *ms <= 0)
      return llvm::createStringError(
          llvm::formatv("'{0}' must be a positive number or null", name));
    *out = *ms;
  }
  if (record.correct && !record.timeMs)
    return llvm::createStringError("a correct record needs 'time_ms'");
  // The reward follows from the outcome: recomputed, never trusted.
  record.reward = computeReward(record.compiled, record.correct,
                                record.getSpeedup() > 0
                                    ? std::optional<double>(record.getSpeedup())
                                    : std::nullopt);
  return record;
}

llvm::json::Value mlir::qimeng::toExperienceJSON(const TuningRecord &record) {
  llvm::json::Array steps;
  const llvm::json::Object *plan = record.plan.getAsObject();
  const llvm::json::Array *actions = plan ? plan->getArray("actions") : nullptr;
  size_t count = actions ? actions->size() : 0;
  for (size_t i = 0; i < count; ++i)
    steps.push_back(llvm::json::Object{
        {"step", int64_t(i)},
        {"action", (*actions)[i]},
        {"reward", i + 1 == count ? record.reward.total() : 0.0}});
  return llvm::json::Object{
      {"format", "qimeng-experience/1"},
      {"kernel", llvm::json::Object{{"fingerprint", record.key.fingerprint},
                                    {"name", record.kernel},
                                    {"family", record.family},
                                    {"features", record.features}}},
      {"gpu", record.key.gpu},
      {"chip", record.key.chip},
      {"version", record.key.version},
      {"source", record.source},
      {"steps", std::move(steps)},
      {"reward", toJSON(record.reward)},
      {"outcome",
       llvm::json::Object{{"compiled", record.compiled},
                          {"correct", record.correct},
                          {"time_ms", optionalNumber(record.timeMs)},
                          {"default_ms", optionalNumber(record.defaultMs)},
                          {"verdict", record.verdict},
                          {"reason", record.reason}}},
      {"measured_at", record.measuredAt}};
}

/// The loop sizes of the first op of `family` in describeKernel's form.
static std::optional<std::vector<double>>
getMainLoops(const llvm::json::Value &features, llvm::StringRef family) {
  const llvm::json::Object *object = features.getAsObject();
  const llvm::json::Array *ops = object ? object->getArray("ops") : nullptr;
  if (!ops)
    return std::nullopt;
  for (const llvm::json::Value &op : *ops) {
    const llvm::json::Object *entry = op.getAsObject();
    if (!entry || entry->getString("family") != family)
      continue;
    const llvm::json::Array *loops = entry->getArray("loops");
    if (!loops)
      return std::nullopt;
    std::vector<double> sizes;
    for (const llvm::json::Value &loop : *loops) {
      std::optional<int64_t> size = loop.getAsInteger();
      sizes.push_back(size && *size > 0 ? std::log2(double(*size)) : 0.0);
    }
    return sizes;
  }
  return std::nullopt;
}

std::vector<TuningRecord> mlir::qimeng::findNearestTunings(
    std::vector<TuningRecord> records, llvm::StringRef fingerprint,
    llvm::StringRef family, const llvm::json::Value &features, unsigned count) {
  std::optional<std::vector<double>> mine = getMainLoops(features, family);
  if (!mine)
    return {};
  std::vector<std::pair<double, size_t>> ranked;
  for (auto [i, record] : llvm::enumerate(records)) {
    if (record.key.fingerprint == fingerprint || record.family != family)
      continue;
    std::optional<std::vector<double>> theirs =
        getMainLoops(record.features, family);
    if (!theirs || theirs->size() != mine->size())
      continue;
    double distance = 0;
    for (size_t d = 0; d < mine->size(); ++d)
      distance += std::fabs((*mine)[d] - (*theirs)[d]);
    ranked.emplace_back(distance, i);
  }
  // Nearest first; equal distances keep the database's order.
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<TuningRecord> nearest;
  for (auto &[distance, index] : ranked) {
    if (nearest.size() >= count)
      break;
    nearest.push_back(std::move(records[index]));
  }
  return nearest;
}

/// A hash of the record's content: the same measurement imported twice is
/// stored once.
static std::string contentHash(const TuningRecord &record) {
  std::string text = llvm::formatv("{0:2}", toJSON(record)).str();
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(hash, /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// The database
//===----------------------------------------------------------------------===//

namespace {
/// A prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3 *db, llvm::StringRef sql) {
    rc = sqlite3_prepare_v2(db, sql.data(), int(sql.size()), &stmt, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt); }
  bool ok() const { return rc == SQLITE_OK && stmt; }
  void bind(int index, llvm::StringRef text) {
    sqlite3_bind_text(stmt, index, text.data(), int(text.size()),
                      SQLITE_TRANSIENT);
  }
  void bind(int index, std::optional<double> value) {
    if (value)
      sqlite3_bind_double(stmt, index, *value);
    else
      sqlite3_bind_null(stmt, index);
  }
  void bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt, index, value);
  }
  int step() { return sqlite3_step(stmt); }
  /// Makes the statement ready to run again with new bindings.
  void reset() {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
  }
  std::string text(int column) {
    const unsigned char *value = sqlite3_column_text(stmt, column);
    return value ? reinterpret_cast<const char *>(value) : "";
  }
  std::optional<double> number(int column) {
    if (sqlite3_column_type(stmt, column) == SQLITE_NULL)
      return std::nullopt;
    return sqlite3_column_double(stmt, column);
  }
  int64_t integer(int column) { return sqlite3_column_int64(stmt, column); }

private:
  sqlite3_stmt *stmt = nullptr;
  int rc = SQLITE_ERROR;
};
} // namespace

TuningDB::~TuningDB() { sqlite3_close(db); }

std::string TuningDB::getDefaultPath() {
  llvm::SmallString<256> dir;
  if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
    dir = cache;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(dir, home, ".cache");
  else
    dir = ".";
  llvm::sys::path::append(dir, "qimeng", "tuning.db");
  return std::string(dir);
}

std::optional<std::string> TuningDB::getPath(llvm::StringRef option) {
  if (option == "off")
    return std::nullopt;
  return option.empty() ? getDefaultPath() : option.str();
}

llvm::Error TuningDB::error(llvm::StringRef what) const {
  return llvm::createStringError(
      llvm::formatv("tuning database '{0}': {1}: {2}", path, what,
                    db ? sqlite3_errmsg(db) : "cannot open")
          .str());
}

llvm::Error TuningDB::exec(llvm::StringRef sql) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql.str().c_str(), nullptr, nullptr, &message) ==
      SQLITE_OK)
    return llvm::Error::success();
  std::string text = message ? message : "unknown error";
  sqlite3_free(message);
  return llvm::createStringError(
      llvm::formatv("tuning database '{0}': {1}", path, text).str());
}

static constexpr llvm::StringLiteral kColumns =
    "fingerprint, gpu, chip, version, kernel, family, features, plan, source, "
    "compiled, correct, time_ms, default_ms, verdict, reason, measured_at";

llvm::Expected<std::unique_ptr<TuningDB>> TuningDB::open(llvm::StringRef path,
                                                         bool create) {
  std::unique_ptr<TuningDB> result(new TuningDB());
  result->path = path.str();
  auto fail = [&](llvm::StringRef why) {
    return llvm::createStringError(
        llvm::formatv("tuning database '{0}': {1}", path, why).str());
  };
  if (!create && !llvm::sys::fs::exists(path))
    return fail("no such file");
  if (create)
    if (std::error_code ec = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(path)))
      if (!llvm::sys::path::parent_path(path).empty())
        return fail("cannot create its directory: " + ec.message());
  int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                     : SQLITE_OPEN_READWRITE;
  if (sqlite3_open_v2(result->path.c_str(), &result->db, flags, nullptr) !=
      SQLITE_OK)
    return result->error("cannot open");
  sqlite3_busy_timeout(result->db, kBusyTimeoutMs);
  sqlite3_extended_result_codes(result->db, 1);
  // A damaged file or one that is not SQLite fails here, in one message.
  {
    Statement check(result->db, "PRAGMA quick_check");
    if (!check.ok() || check.step() != SQLITE_ROW)
      return fail(llvm::formatv("not a usable SQLite database ({0}); move "
                                "it away or choose another file with "
                                "--tuning-db",
                                sqlite3_errmsg(result->db))
                      .str());
    if (std::string verdict = check.text(0); verdict != "ok")
      return fail("the database is damaged (" + verdict +
                  "); move it away or choose another file with --tuning-db");
  }
  // The schema: an empty file, or ours (user_version and the table). The
  // statements are finished before anything else runs: SQLite will not
  // change the journal mode, or wait for a write lock, while they are open.
  int64_t userVersion = 0, objects = 0, ours = 0;
  {
    Statement version(result->db, "PRAGMA user_version");
    if (!version.ok() || version.step() != SQLITE_ROW)
      return result->error("cannot read the schema version");
    userVersion = version.integer(0);
  }
  {
    Statement tables(result->db,
                     "SELECT count(*), sum(type = 'table' AND name = "
                     "'candidates') FROM sqlite_master");
    if (!tables.ok() || tables.step() != SQLITE_ROW)
      return result->error("cannot read the schema");
    objects = tables.integer(0);
    ours = tables.integer(1);
  }
  bool empty = objects == 0;
  if (!empty && (userVersion != kSchemaVersion || ours != 1))
    return fail(llvm::formatv("not a QiMeng tuning database of schema {0} "
                              "(user_version {1})",
                              kSchemaVersion, userVersion)
                    .str());
  // WAL lets readers go on while one compile writes; it is kept in the
  // file, so setting it once is enough (a read-only file keeps its mode).
  {
    Statement wal(result->db, "PRAGMA journal_mode=WAL");
    if (wal.ok())
      (void)wal.step();
  }
  if (empty) {
    if (llvm::Error err = result->exec(
            "BEGIN IMMEDIATE;"
            "CREATE TABLE IF NOT EXISTS candidates ("
            " id INTEGER PRIMARY KEY,"
            " content TEXT NOT NULL UNIQUE,"
            " fingerprint TEXT NOT NULL, gpu TEXT NOT NULL,"
            " chip TEXT NOT NULL, version TEXT NOT NULL,"
            " kernel TEXT NOT NULL, family TEXT NOT NULL,"
            " features TEXT NOT NULL, plan TEXT NOT NULL,"
            " source TEXT NOT NULL, compiled INTEGER NOT NULL,"
            " correct INTEGER NOT NULL, time_ms REAL, default_ms REAL,"
            " verdict TEXT NOT NULL, reason TEXT NOT NULL,"
            " measured_at TEXT NOT NULL);"
            "CREATE INDEX IF NOT EXISTS by_key ON candidates"
            " (fingerprint, chip, version, gpu);"
            "CREATE INDEX IF NOT EXISTS by_family ON candidates"
            " (family, chip, version);"
            "PRAGMA user_version = 1;"
            "COMMIT;")) {
      llvm::consumeError(result->exec("ROLLBACK"));
      return std::move(err);
    }
  }
  return result;
}

llvm::Expected<unsigned>
TuningDB::insert(llvm::ArrayRef<TuningRecord> records) {
  if (llvm::Error err = exec("BEGIN IMMEDIATE"))
    return std::move(err);
  unsigned added = 0;
  {
    Statement stmt(db,
                   ("INSERT OR IGNORE INTO candidates (content, " + kColumns +
                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                    "?11, ?12, ?13, ?14, ?15, ?16, ?17)")
                       .str());
    if (!stmt.ok()) {
      llvm::Error err = error("cannot prepare an insert");
      llvm::consumeError(exec("ROLLBACK"));
      return std::move(err);
    }
    for (const TuningRecord &r : records) {
      stmt.reset();
      stmt.bind(1, contentHash(r));
      stmt.bind(2, r.key.fingerprint);
      stmt.bind(3, r.key.gpu);
      stmt.bind(4, r.key.chip);
      stmt.bind(5, r.key.version);
      stmt.bind(6, r.kernel);
      stmt.bind(7, r.family);
      stmt.bind(8, llvm::formatv("{0}", r.features).str());
      stmt.bind(9, llvm::formatv("{0}", r.plan).str());
      stmt.bind(10, r.source);
      stmt.bind(11, int64_t(r.compiled));
      stmt.bind(12, int64_t(r.correct));
      stmt.bind(13, r.timeMs);
      stmt.bind(14, r.defaultMs);
      stmt.bind(15, r.verdict);
      stmt.bind(16, r.reason);
      stmt.bind(17, r.measuredAt);
      if (stmt.step() != SQLITE_DONE) {
        llvm::Error err = error("cannot store a record");
        llvm::consumeError(exec("ROLLBACK"));
        return std::move(err);
      }
      added += sqlite3_changes(db);
    }
  }
  if (llvm::Error err = exec("COMMIT")) {
    llvm::consumeError(exec("ROLLBACK"));
    return std::move(err);
  }
  return added;
}

llvm::Expected<std::vector<TuningRecord>>
TuningDB::query(llvm::StringRef where, llvm::ArrayRef<std::string> args,
                llvm::StringRef tail) {
  std::string sql = ("SELECT " + kColumns + " FROM candidates" +
                     (where.empty() ? "" : " WHERE ") + where + " " + tail)
                        .str();
  Statement stmt(db, sql);
  if (!stmt.ok())
    return error("cannot query");
  for (auto [i, arg] : llvm::enumerate(args))
    stmt.bind(int(i) + 1, arg);
  std::vector<TuningRecord> records;
  int rc;
  while ((rc = stmt.step()) == SQLITE_ROW) {
    TuningRecord r;
    r.key = {stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)};
    r.kernel = stmt.text(4);
    r.family = stmt.text(5);
    llvm::Expected<llvm::json::Value> features =
        llvm::json::parse(stmt.text(6));
    llvm::Expected<llvm::json::Value> plan = llvm::json::parse(stmt.text(7));
    if (!features || !plan) {
      llvm::consumeError(features.takeError());
      llvm::consumeError(plan.takeError());
      return llvm::createStringError(
          llvm::formatv("tuning database '{0}': a stored plan is not JSON; "
                        "the database is damaged",
                        path)
              .str());
    }
    r.features = std::move(*features);
    r.plan = std::move(*plan);
    r.source = stmt.text(8);
    r.compiled = stmt.integer(9) != 0;
    r.correct = stmt.integer(10) != 0;
    r.timeMs = stmt.number(11);
    r.defaultMs = stmt.number(12);
    r.verdict = stmt.text(13);
    r.reason = stmt.text(14);
    r.measuredAt = stmt.text(15);
    double speedup = r.getSpeedup();
    r.reward = computeReward(r.compiled, r.correct,
                             speedup > 0 ? std::optional<double>(speedup)
                                         : std::nullopt);
    records.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE)
    return error("cannot read the records");
  return records;
}

llvm::Expected<std::optional<TuningRecord>>
TuningDB::findBest(const TuningKey &key) {
  std::vector<std::string> args = {key.fingerprint, key.chip, key.version};
  std::string where = "fingerprint = ?1 AND chip = ?2 AND version = ?3 AND "
                      "correct = 1 AND time_ms IS NOT NULL";
  if (!key.gpu.empty()) {
    where += " AND gpu = ?4";
    args.push_back(key.gpu);
  }
  llvm::Expected<std::vector<TuningRecord>> found =
      query(where, args, "ORDER BY time_ms, id LIMIT 1");
  if (!found)
    return found.takeError();
  if (found->empty())
    return std::nullopt;
  return std::move(found->front());
}

llvm::Expected<std::vector<TuningRecord>>
TuningDB::findBestOfFamily(llvm::StringRef family, const TuningKey &where) {
  std::vector<std::string> args = {family.str(), where.chip, where.version};
  std::string condition = "family = ?1 AND chip = ?2 AND version = ?3 AND "
                          "correct = 1 AND time_ms IS NOT NULL";
  if (!where.gpu.empty()) {
    condition += " AND gpu = ?4";
    args.push_back(where.gpu);
  }
  llvm::Expected<std::vector<TuningRecord>> all =
      query(condition, args, "ORDER BY fingerprint, time_ms, id");
  if (!all)
    return all.takeError();
  // The first (fastest) of each fingerprint.
  std::vector<TuningRecord> best;
  for (TuningRecord &record : *all)
    if (best.empty() || best.back().key.fingerprint != record.key.fingerprint)
      best.push_back(std::move(record));
  return best;
}

llvm::Expected<std::vector<TuningRecord>> TuningDB::getAll() {
  return query("", {}, "ORDER BY id");
}

llvm::Error TuningDB::exportJSON(llvm::StringRef file) {
  llvm::Expected<std::vector<TuningRecord>> records = getAll();
  if (!records)
    return records.takeError();
  llvm::json::Array array;
  for (const TuningRecord &record : *records)
    array.push_back(toJSON(record));
  llvm::json::Object document{{"format", "qimeng-tuning"},
                              {"version", kSchemaVersion},
                              {"records", std::move(array)}};
  return llvm::writeToOutput(file, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(document)))
       << "\n";
    return llvm::Error::success();
  });
}

llvm::Expected<unsigned> TuningDB::importJSON(llvm::StringRef file) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(file);
  if (!buffer)
    return llvm::createStringError(
        ("cannot read " + file + ": " + buffer.getError().message()).str());
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return llvm::createStringError(
        (file + " is not JSON: " + llvm::toString(parsed.takeError())).str());
  const llvm::json::Object *document = parsed->getAsObject();
  const llvm::json::Array *array =
      document ? document->getArray("records") : nullptr;
  if (!document || document->getString("format") != "qimeng-tuning" || !array)
    return llvm::createStringError(
        (file + " is not a QiMeng tuning export (format \"qimeng-tuning\" "
                "with \"records\")")
            .str());
  std::vector<TuningRecord> records;
  for (auto [i, value] : llvm::enumerate(*array)) {
    llvm::Expected<TuningRecord> record = tuningRecordFromJSON(value);
    if (!record)
      return llvm::createStringError(
          llvm::formatv("{0}: records[{1}]: {2}", file, i,
                        llvm::toString(record.takeError()))
              .str());
    records.push_back(std::move(*record));
  }
  return insert(records);
}
