//===- Search.h - Plans chosen by measuring them ----------------*- C++ -*-===//
//
// Macro thinking with measured rewards: the kernel's candidate plans
// (Candidates.h) are compiled in parallel on the CPU, each in its own MLIR
// context, then verified and timed on the GPU by the verifier (qimeng-run
// in a child process, one worker per visible GPU, the benchmark's timing
// protocol), and the fastest correct one wins. Each candidate gets the
// paper's shaped reward (TuningDB.h).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SEARCH_SEARCH_H
#define QIMENG_SEARCH_SEARCH_H

#include "QiMeng/Search/Candidates.h"
#include "QiMeng/Search/TuningDB.h"
#include "QiMeng/Verifier/VerifyStep.h"

#include "llvm/ADT/Twine.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::qimeng {

/// The QiMeng version tunings are stored under.
llvm::StringRef getQiMengVersion();

/// The GPU this process would time on: device 0's name and the GPUs of the
/// same model (their ordinals), or an error when there is none.
struct SearchDevices {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  std::vector<int> ordinals;
};
llvm::Expected<SearchDevices> findSearchDevices();

/// A candidate module lowered to NVVM/PTX (its text), or why not.
struct CompiledCandidate {
  std::string lowered, error;
  double seconds = 0;
};

/// Compiles each module text (a kernel with its plan, on tensors or
/// memrefs) with qimeng-realize-plans and lower-to-nvvm{`lowering`} (its
/// options, e.g. "chip=sm_90 format=bin"), on
/// `threads` threads (0: the CPU's cores), each in an MLIR context of its
/// own made from `registry`. An empty text is an empty result.
std::vector<CompiledCandidate>
compileCandidates(const DialectRegistry &registry,
                  llvm::ArrayRef<std::string> modules, llvm::StringRef lowering,
                  unsigned threads,
                  std::function<void(unsigned done)> progress = nullptr);

/// For each compiled candidate, the first earlier one that compiled to the
/// same code, or -1 (none, or it did not compile): plans that differ but
/// realize alike (e.g. a vector width the micro-coder cannot use there)
/// need one measurement.
std::vector<int> findSameCode(llvm::ArrayRef<CompiledCandidate> compiled);

struct SearchOptions {
  /// Candidates to measure, the default plan included.
  unsigned maxCandidates = 32;
  /// Plans proposed besides the neighbours (the LLM planner's samples):
  /// measured first after the default (see selectCandidates).
  std::vector<CandidatePlan> proposed;
  /// Seconds the search of one kernel may take (0: no limit); the default
  /// plan is always measured.
  double budgetSeconds = 0;
  uint64_t seed = 0;
  /// Verification trials per candidate, and for the winner once more.
  unsigned trials = 1, finalTrials = 3;
  TimingOptions timing;
  /// lower-to-nvvm's chip, and its format ("": bin when ptxas is found,
  /// else isa).
  std::string chip = "sm_90";
  std::string format;
  /// Compile threads (0: the CPU's cores).
  unsigned compileThreads = 0;
  /// GPU ordinals to time on, one worker each (empty: the default device).
  std::vector<int> devices;
  /// qimeng-run to verify with (see StepOptions::runTool).
  std::string runTool;
  std::function<void(const llvm::Twine &)> progress;
};

struct MeasuredCandidate {
  CandidatePlan candidate;
  bool compiled = false, correct = false;
  std::optional<double> timeMs;
  /// "pass", "fail", "compile-error", "could-not-run", "skipped".
  std::string verdict;
  std::string reason;
  /// Seconds to compile (on one core) and to verify and time.
  double compileSeconds = 0, measureSeconds = 0;
  /// Where qimeng-run's seconds for it went (phase → seconds; see
  /// Verifier/PhaseTimes.h); the first of a batch has the reference's too.
  std::vector<std::pair<std::string, double>> phaseSeconds;
  Reward reward;
};

struct SearchResult {
  /// In measuring order; the default first.
  std::vector<MeasuredCandidate> measured;
  /// Index of the fastest correct candidate, -1 when none.
  int best = -1;
  std::optional<double> defaultMs;
  unsigned generated = 0, illegal = 0, pruned = 0, skipped = 0;
  /// Proposed plans among the candidates.
  unsigned proposed = 0;
  /// The whole search, and its compile phase (wall clock).
  double seconds = 0, compileSeconds = 0;
  /// Set when no candidate could be measured (no GPU, no qimeng-run, the
  /// default plan itself failed): why.
  std::string failure;
};

/// Searches plans for `kernel` around `plan` (which is left as it is).
/// `module` supplies the globals the kernel uses.
SearchResult searchPlans(ModuleOp module, PlanOp plan, func::FuncOp kernel,
                         const TargetProfile &profile,
                         const SearchOptions &options);

} // namespace mlir::qimeng

#endif // QIMENG_SEARCH_SEARCH_H
