//===- TuningDB.h - Measured plans, remembered ------------------*- C++ -*-===//
//
// The tuning database: every candidate plan the search measured (its plan
// JSON, whether it compiled and matched the reference, its time, speedup
// and reward), keyed by the kernel's fingerprint, the GPU (name and compute
// capability) and the QiMeng version. A later compile of the same kernel on
// the same GPU takes the fastest correct plan from it. SQLite, in WAL mode
// with a busy timeout, so concurrent compiles share one file safely; JSON
// import and export let a team share tunings (docs/tuning.md).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SEARCH_TUNINGDB_H
#define QIMENG_SEARCH_TUNINGDB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace mlir::qimeng {

/// What a tuning is stored under.
struct TuningKey {
  /// getKernelFingerprint of the kernel as the planner saw it.
  std::string fingerprint;
  /// The GPU's name ("NVIDIA H200"); empty in a lookup matches any name.
  std::string gpu;
  /// "sm_90".
  std::string chip;
  /// The QiMeng version (getQiMengVersion()).
  std::string version;
};

/// The reward of one candidate, by the paper's shaping: compiled +0.1 (or
/// -1.0, and nothing else counts), correct +0.5 (or -0.5), and the speedup
/// over the default plan when it is correct and timed.
struct Reward {
  double compile = 0, correct = 0, speedup = 0;
  double total() const { return compile + correct + speedup; }
};

/// Reward of a candidate from its outcome; `speedup` is the default plan's
/// time over the candidate's (ignored unless compiled and correct).
Reward computeReward(bool compiled, bool correct,
                     std::optional<double> speedup);

/// {"compile", "correct", "speedup", "total"}.
llvm::json::Value toJSON(const Reward &reward);

/// One measured candidate.
struct TuningRecord {
  TuningKey key;
  /// The kernel's symbol name when it was measured (informative only).
  std::string kernel;
  /// OpFamily name of the kernel's main op and the kernel's features
  /// (loops, element types, FLOPs, bytes) as JSON.
  std::string family;
  llvm::json::Value features = llvm::json::Object();
  /// The plan's JSON form (planToJSON).
  llvm::json::Value plan = llvm::json::Object();
  /// Where the candidate came from: "default", "neighbour", "llm".
  std::string source;
  bool compiled = false, correct = false;
  /// Median time of the timed calls (ms), when measured.
  std::optional<double> timeMs;
  /// The default plan's median time in the same search.
  std::optional<double> defaultMs;
  Reward reward;
  /// The verifier's verdict ("pass", "fail", "compile-error", ...) and why.
  std::string verdict, reason;
  /// ISO-8601 UTC time of the measurement.
  std::string measuredAt;

  double getSpeedup() const {
    return timeMs && defaultMs && *timeMs > 0 ? *defaultMs / *timeMs : 0;
  }
};

llvm::json::Value toJSON(const TuningRecord &record);
/// Reads a record back from toJSON's form; the error names the field.
llvm::Expected<TuningRecord> tuningRecordFromJSON(const llvm::json::Value &);

/// The record as one line of RL training data (docs/tuning.md): the
/// kernel's features, the plan as an action sequence with a reward per step
/// (the plan is compiled and measured as a whole, so every step but the
/// last gets 0 and the last the total), the total and its components.
llvm::json::Value toExperienceJSON(const TuningRecord &record);

/// The `count` records (best plans of other kernels, as findBestOfFamily
/// gives them) nearest to a kernel with `features` (describeKernel's form):
/// the main op of the same family with the same number of loops, nearest
/// in the sum of |log2| ratios of the loop sizes. Records of the kernel's own
/// fingerprint and of other loop counts are left out.
std::vector<TuningRecord> findNearestTunings(std::vector<TuningRecord> records,
                                             llvm::StringRef fingerprint,
                                             llvm::StringRef family,
                                             const llvm::json::Value &features,
                                             unsigned count);

class TuningDB {
public:
  ~TuningDB();

  /// $XDG_CACHE_HOME/qimeng/tuning.db (else ~/.cache/qimeng/tuning.db).
  static std::string getDefaultPath();

  /// The file of --tuning-db=`option`: the default path for "", none for
  /// "off".
  static std::optional<std::string> getPath(llvm::StringRef option);

  /// Opens (and with `create`, creates with its directory) the database at
  /// `path` and checks it; a file that is not a QiMeng tuning database, or
  /// a damaged one, is an error saying so.
  static llvm::Expected<std::unique_ptr<TuningDB>> open(llvm::StringRef path,
                                                        bool create);

  const std::string &getPath() const { return path; }

  /// Stores `records` in one transaction; a record stored before (same
  /// content) is not stored twice. Returns how many were new.
  llvm::Expected<unsigned> insert(llvm::ArrayRef<TuningRecord> records);

  /// The fastest correct record of `key` (any GPU name when key.gpu is
  /// empty), if there is one.
  llvm::Expected<std::optional<TuningRecord>> findBest(const TuningKey &key);

  /// The fastest correct record of every kernel of `family` measured on
  /// `gpu` / `chip` (any name when `gpu` is empty) and this `version`.
  llvm::Expected<std::vector<TuningRecord>>
  findBestOfFamily(llvm::StringRef family, const TuningKey &where);

  /// Every record, oldest first.
  llvm::Expected<std::vector<TuningRecord>> getAll();

  /// Writes every record to `path` as {"format": "qimeng-tuning", ...}.
  llvm::Error exportJSON(llvm::StringRef path);
  /// Adds the records of a file written by exportJSON; returns how many were
  /// new.
  llvm::Expected<unsigned> importJSON(llvm::StringRef path);

private:
  TuningDB() = default;
  llvm::Error error(llvm::StringRef what) const;
  llvm::Error exec(llvm::StringRef sql);
  llvm::Expected<std::vector<TuningRecord>>
  query(llvm::StringRef where, llvm::ArrayRef<std::string> args,
        llvm::StringRef tail);

  sqlite3 *db = nullptr;
  std::string path;
};

} // namespace mlir::qimeng

#endif // QIMENG_SEARCH_TUNINGDB_H
