//===- VerifyStep.h - Verify a candidate from a pass ------------*- C++ -*-===//
//
// The entry the micro-coding passes call after every step: is this
// candidate module still the reference program? The check runs qimeng-run
// --verify in a separate process (with a time limit), so a kernel that
// faults, traps or hangs fails the step and never takes the compiler down,
// and the compiler's own MLIR context is never shared with the GPU run.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_VERIFYSTEP_H
#define QIMENG_VERIFIER_VERIFYSTEP_H

#include "QiMeng/Verifier/Verifier.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::qimeng {

enum class StepStatus {
  /// Matches the reference in every trial.
  Pass,
  /// Compile error, wrong result, fault, crash or time-out: `reason` says.
  Fail,
  /// Nothing wrong with the candidate was found, but it could not be run:
  /// no GPU, no qimeng-run, or the reference itself failed.
  CouldNotRun,
};

struct StepOptions {
  unsigned trials = 3;
  /// The first trial's seed; unset: drawn fresh for each check (a batch
  /// draws one for all its candidates). The report records it.
  std::optional<uint64_t> seed;
  /// Overrides the per-type default.
  std::optional<Tolerance> tolerance;
  /// Time candidate and reference (same protocol) when set.
  std::optional<TimingOptions> timing;
  /// With `timing`: time the reference too (a search times only the
  /// candidates).
  bool timeReference = true;
  /// Where the reference runs (qimeng-run --reference-on).
  ReferenceOn referenceOn = ReferenceOn::Auto;
  /// The GPU ordinal to run on (CUDA_VISIBLE_DEVICES of the child); the
  /// default device when unset.
  std::optional<int> device;
  /// Limit for the whole check (compiles, trials, timing), in seconds.
  unsigned timeoutSeconds = 300;
  /// The qimeng-run to use; empty: $QIMENG_RUN, else the one beside the
  /// running executable, else qimeng-run on PATH.
  std::string runTool;
};

struct StepResult {
  StepStatus status = StepStatus::CouldNotRun;
  /// Why it failed or could not run (empty on Pass).
  std::string reason;
  /// With StepOptions::timing.
  std::optional<Timing> candidateTiming, referenceTiming;
  /// The full qimeng-run report (see docs/user-guide.md), when one came.
  llvm::json::Object report;
  /// CouldNotRun because the machine has no usable GPU (qimeng-run's
  /// "no-gpu"), not because something else failed.
  bool noGpu = false;
};

/// Checks `candidate`'s function `entry` against `reference`'s on the GPU:
/// fresh seeded inputs per trial, NaN-poisoned outputs, unchanged inputs,
/// per-type tolerance (see Verifier). Both modules may hold linalg on tensors
/// or memrefs; neither is modified.
StepResult verifyStep(ModuleOp candidate, ModuleOp reference,
                      llvm::StringRef entry, const StepOptions &options = {});

/// verifyStep on modules already written to files: `candidate` may be
/// lowered already (qimeng-run runs lowered modules as they are);
/// `reference` is the original program.
StepResult verifyStepFiles(llvm::StringRef candidate, llvm::StringRef reference,
                           llvm::StringRef entry,
                           const StepOptions &options = {});

/// verifyStepFiles for several lowered candidates against one reference, in
/// one qimeng-run (--candidates) that compiles the reference and runs it
/// once per seed for all of them; a candidate that faults, crashes or hangs
/// fails alone and the rest go on in a fresh process. A process gets
/// `options.timeoutSeconds` times the candidates it is given (a candidate
/// that hangs holds the GPU that long before it is killed). One result per
/// candidate, in order; a result's report is the candidate's line of
/// `qimeng-run --candidates-report` (status, message, verify).
std::vector<StepResult> verifyStepBatch(llvm::ArrayRef<std::string> candidates,
                                        llvm::StringRef reference,
                                        llvm::StringRef entry,
                                        const StepOptions &options = {});

/// "pass", "fail" or "could-not-run".
llvm::StringRef stringifyStepStatus(StepStatus status);

/// Reads a timing back from its JSON form (see toJSON(const Timing &)).
std::optional<Timing> timingFromJSON(const llvm::json::Value *value);

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_VERIFYSTEP_H
