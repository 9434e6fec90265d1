//===- fuzz-tuning-db.cpp - Tuning databases and exports read back --------===//
//
// The bytes are a file QiMeng finds where its tuning database should be
// (--tuning-db, $XDG_CACHE_HOME/qimeng/tuning.db): TuningDB::open checks it,
// and a database it accepts is listed, searched, exported, written to and
// read again through the public API. The same bytes are then a tuning
// export (qimeng-tune --import), imported into an empty database. Damage
// must come back as an llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "QiMeng/Search/TuningDB.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {
/// Where the database lives, and its SQLite companions.
const std::string &getDatabasePath() {
  static const std::string path = fuzz::getScratchPath("tuning.db");
  return path;
}

void removeDatabase() {
  for (const char *suffix : {"", "-wal", "-shm", "-journal"})
    llvm::sys::fs::remove(getDatabasePath() + suffix);
}

/// `value` or, when it is an error, nothing (the error is the input's).
template <typename T> std::optional<T> take(llvm::Expected<T> value) {
  if (value)
    return std::move(*value);
  llvm::consumeError(value.takeError());
  return std::nullopt;
}

/// The features of a 256x512x1024 matmul, in describeKernel's form.
llvm::json::Value matmulFeatures() {
  return llvm::json::Object{
      {"ops", llvm::json::Array{llvm::json::Object{
                  {"family", "matmul"},
                  {"loops", llvm::json::Array{256, 512, 1024}}}}}};
}

/// A measured record of the kind the plan search stores.
TuningRecord makeRecord() {
  TuningRecord record;
  record.key = {std::string(64, 'f'), "NVIDIA H200", "sm_90", "0.8.0"};
  record.kernel = "mm";
  record.family = "matmul";
  record.features = matmulFeatures();
  record.plan = llvm::json::Object{{"kernel", "mm"},
                                   {"provenance", "builtin"},
                                   {"actions", llvm::json::Array{}}};
  record.source = "default";
  record.compiled = record.correct = true;
  record.timeMs = record.defaultMs = 1.5;
  record.reward = computeReward(true, true, 1.0);
  record.verdict = "pass";
  record.measuredAt = "2025-01-01T00:00:00Z";
  return record;
}

/// Everything a compile or qimeng-tune asks of an open database.
void useDatabase(TuningDB &db) {
  std::optional<std::vector<TuningRecord>> all = take(db.getAll());
  TuningKey key = {std::string(64, 'f'), "", "sm_90", "0.8.0"};
  (void)take(db.findBest(key));
  std::optional<std::vector<TuningRecord>> family =
      take(db.findBestOfFamily("matmul", key));
  if (family)
    (void)findNearestTunings(*family, key.fingerprint, "matmul",
                             matmulFeatures(), 3);
  if (all)
    for (const TuningRecord &record : *all) {
      (void)toExperienceJSON(record);
      // What the database holds must export as a record that reads back.
      llvm::json::Value json = toJSON(record);
      (void)take(tuningRecordFromJSON(json));
    }
  std::string exported = fuzz::getScratchPath("export.json");
  if (llvm::Error error = db.exportJSON(exported)) {
    llvm::consumeError(std::move(error));
    return;
  }
  (void)take(db.insert({makeRecord()}));
  (void)take(db.importJSON(exported));
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::clearLLMEnvironment();
  (void)fuzz::getScratchDirectory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  llvm::StringRef bytes = fuzz::asText(data, size);
  removeDatabase();
  fuzz::writeScratchFile(getDatabasePath(), bytes);
  if (std::optional<std::unique_ptr<TuningDB>> db =
          take(TuningDB::open(getDatabasePath(), /*create=*/false)))
    useDatabase(**db);
  removeDatabase();

  // The bytes as an export, imported into a new database (SQLite's
  // in-memory one: the same code, without the disk).
  std::string exported = fuzz::getScratchPath("import.json");
  fuzz::writeScratchFile(exported, bytes);
  std::optional<std::unique_ptr<TuningDB>> db =
      take(TuningDB::open(":memory:", /*create=*/true));
  if (!db)
    fuzz::reportBug("a new tuning database cannot be created");
  if (std::optional<unsigned> added = take((*db)->importJSON(exported)))
    if (*added)
      useDatabase(**db);
  return 0;
}
