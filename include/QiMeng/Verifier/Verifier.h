//===- Verifier.h - Check compiled kernels against a reference --*- C++ -*-===//
//
// The candidate (the module with its plans) and the reference (the same
// module with plain plans: one thread per output, none of the optimizing
// actions) run on the same seeded inputs; every output must match within a
// tolerance (the element type's, scaled to the size of the outputs and the
// length of the kernel's longest reduction). Anti-cheat rules: outputs are
// NaN-poisoned before each candidate run, inputs must come back unchanged,
// several trials use fresh seeds, an output that is constant where the
// reference is not is rejected, and a speed-up above 10x over the reference is
// flagged.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_VERIFIER_H
#define QIMENG_VERIFIER_VERIFIER_H

#include "QiMeng/Verifier/Runner.h"

#include <map>
#include <memory>
#include <optional>
#include <random>

namespace mlir::qimeng {

/// |got - expected| <= atol' + rtol * |expected|, elementwise, where atol'
/// is atol itself, or with `scaled` atol * scale * max(1, sqrt(reductionLength
/// / kToleranceReductionLength)). The scale is the root mean square of the
/// expected values of the element's group (getToleranceGroupSize: its row,
/// or the whole output), but at least kToleranceGroupFloor times the whole
/// output's: rounding errors grow with the size of the values (a
/// probability of 1e-5 gets an error allowance of 1e-9, not 1e-4) and,
/// summed serially as the reference does, with the square root of the
/// reduction's length. No absolute floor: an output of small values is
/// checked as closely as one of large values.
struct Tolerance {
  double atol = 0, rtol = 0;
  bool scaled = false;
  int64_t reductionLength = 1;
};

/// The reduction length up to which a scaled tolerance is not widened.
constexpr int64_t kToleranceReductionLength = 4096;
/// A row of at least this many elements has a scale of its own.
constexpr int64_t kToleranceGroupMin = 32;
/// A group's scale is at least this fraction of the whole output's (a row
/// that is nearly zero by cancellation is not held to its own size).
constexpr double kToleranceGroupFloor = 1e-3;

/// Floats: atol and rtol 1e-4 (f32, f64), 1e-2 (bf16; f16 with reductions;
/// f32 computed as tf32, `tf32`) or 3e-3 (f16 without), scaled, for a
/// kernel whose longest reduction sums `reductionLength` terms; integers:
/// exact.
Tolerance getDefaultTolerance(Type element, int64_t reductionLength = 1,
                              bool tf32 = false);

/// The most terms any linalg op of `module` sums into one output element
/// (the product of its reduction loop ranges, a dynamic one counted as
/// kToleranceReductionLength); 1 without reductions.
int64_t getReductionLength(ModuleOp module);

/// The elements of an output of `shape` that share a scale: the innermost
/// dimension's rows when they have at least kToleranceGroupMin elements
/// (rank 2 and more), else the whole output.
int64_t getToleranceGroupSize(llvm::ArrayRef<int64_t> shape);

/// The absolute error a tolerance allows (before its rtol part), per group.
struct AbsoluteTolerance {
  /// Elements per group (consecutive in memory).
  int64_t groupSize = 1;
  /// One per group (a single one for an unscaled tolerance).
  std::vector<double> perGroup;
  /// The allowance of the element at flat `index`.
  double operator()(int64_t index) const {
    return perGroup.size() == 1 ? perGroup[0] : perGroup[index / groupSize];
  }
};

/// The absolute error `tolerance` allows each element of `expected`.
AbsoluteTolerance getAbsoluteTolerance(const HostBuffer &expected,
                                       Tolerance tolerance);

/// How one output compares with the reference.
struct Comparison {
  bool ok = true;
  double maxAbsError = 0, maxRelError = 0;
  /// The largest error over its allowance (atol' + rtol |expected|): below
  /// 1 when every element is within tolerance; how close the closest one
  /// came. Infinite for an error where nothing is allowed (integers, a
  /// mismatch of NaN).
  double margin = 0;
  /// Flat index of the first mismatch, -1 if none.
  int64_t firstMismatch = -1;
  /// Why it failed (empty when ok).
  std::string reason;
};

/// Compares `got` with `expected` (same type and shape). NaN or infinity in
/// `got` where `expected` is finite is a mismatch; so is an output that is
/// constant where the reference is not. i1 elements compare as the bytes
/// they are stored in (anything but 0 or 1 is poison left unwritten).
Comparison compareBuffers(const HostBuffer &got, const HostBuffer &expected,
                          Tolerance tolerance);

/// The element at flat `index` of a buffer as a double (for reports).
double getElement(const HostBuffer &buffer, int64_t index);

/// "[i, j, k]" of a flat index in `shape`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

/// A seed for a verification's inputs, fresh from the system's entropy
/// source (below 2^53, so JSON reports keep it exact).
inline uint64_t drawSeed() {
  std::random_device device;
  uint64_t seed = (uint64_t(device()) << 32) ^ device();
  return seed & ((uint64_t(1) << 53) - 1);
}

/// The input scale of the verifier's small-input trials (VerifyOptions).
constexpr int kSmallInputsLog2 = -10;

struct VerifyOptions {
  /// Trials; trial t uses seed `seed + t`, poison pattern t % 2, and, when
  /// t % 3 == 1, f32/f64 inputs of magnitude below 2^-10 (kSmallInputsLog2:
  /// where an additive constant such as a norm's epsilon is no longer
  /// negligible, so a wrong one shows). Unset:
  /// drawn fresh (drawSeed), so no fixed inputs can be tuned to; the report
  /// records it for replaying with --seed.
  unsigned trials = 3;
  std::optional<uint64_t> seed;
  /// Overrides the per-type default.
  std::optional<Tolerance> tolerance;
  RunOptions run;
  /// Also time candidate and reference by this protocol (after the trials,
  /// on inputs of seed `seed`).
  std::optional<TimingOptions> timing;
  /// With `timing`: time a GPU reference as well.
  bool timeReference = true;
};

struct OutputReport {
  /// "arg2" or "result0".
  std::string name;
  Comparison comparison;
};

struct TrialReport {
  uint64_t seed = 0;
  /// f32/f64 inputs were scaled by 2^inputScaleLog2 (RunOptions).
  int inputScaleLog2 = 0;
  bool ok = true;
  std::string reason;
  SmallVector<OutputReport> outputs;
  double candidateMs = 0, referenceMs = 0;
  /// Whether the outputs were NaN-poisoned (false when the reference reads
  /// its outputs' old contents: which outputs showed NaN is in `note`).
  bool poisoned = true;
  std::string note;
};

struct VerifyReport {
  bool ok = true;
  /// The seed of the first trial.
  uint64_t seed = 0;
  /// Where the reference ran: "cpu" or "gpu-naive".
  std::string referenceOn;
  SmallVector<TrialReport> trials;
  /// With VerifyOptions::timing (the reference only when on the GPU: host
  /// wall-clock times are no baseline for a kernel).
  std::optional<Timing> candidateTiming, referenceTiming;
  /// Reference time over candidate time: medians of the timed calls when
  /// timed, else the trials' wall-clock times.
  double speedup = 0;
  /// Set when the candidate ran more than 10x faster than the reference.
  bool suspiciousSpeedup = false;
  /// With timing: what the last timed call left, judged against the first
  /// trial's reference (a kernel that computes only when checked fails
  /// here). Unset when the reference reads its outputs' old contents (the
  /// timed calls accumulate into them).
  std::optional<TrialReport> afterTiming;
};

/// Judges one trial from the candidate's run (`got`) and the reference's
/// (`expected`) on the same inputs: the arguments flagged in `outputs` (what
/// the reference writes) and the results must match within `tolerance`
/// (by default getDefaultTolerance of their element type, `reductionLength`
/// and `tf32`: the candidate computes f32 as tf32), and the candidate must
/// have left every other argument unchanged.
TrialReport judgeTrial(const RunResult &got, const RunResult &expected,
                       llvm::ArrayRef<bool> outputs,
                       std::optional<Tolerance> tolerance,
                       int64_t reductionLength = 1, bool tf32 = false);

/// A failure of the reference (it did not compile or run), not of the
/// candidate: the verdict is "could not run", not "failed".
class ReferenceError : public llvm::ErrorInfo<ReferenceError> {
public:
  static char ID;
  explicit ReferenceError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string message;
};

/// Where the reference runs.
enum class ReferenceOn {
  /// The CPU for problems up to kCpuReferenceIterations loop iterations
  /// (all linalg ops of the module together, static shapes), else the GPU.
  Auto,
  Cpu,
  Gpu,
};

/// The most loop iterations Auto leaves to the CPU reference (about a
/// second of JIT-compiled scalar loops).
inline constexpr int64_t kCpuReferenceIterations = int64_t(1) << 28;

/// The mode Auto picks for `module`.
RunnerMode chooseReferenceMode(ModuleOp module);

/// A reference compiled once and shared by the verifiers of several
/// candidates (a plan search): its results for each seed are computed once.
class SharedReference {
public:
  /// Compiles the reference from `original` (see Verifier::create); with
  /// `wideReductions` its reductions accumulate in f64.
  static llvm::Expected<std::shared_ptr<SharedReference>>
  create(ModuleOp original, llvm::StringRef entry,
         ReferenceOn referenceOn = ReferenceOn::Auto,
         bool wideReductions = true);
  Runner &getRunner() { return *runner; }

private:
  friend class Verifier;
  std::unique_ptr<Runner> runner;
  int64_t reductionLength = 1;
  /// Per seed and input scale: the reference's result and the outputs it
  /// left NaN in.
  std::map<std::pair<uint64_t, int>, std::pair<RunResult, std::string>> results;
  /// Whether `results` outlive a trial: only a reference shared by several
  /// candidates needs them again (each is every argument: hundreds of MB
  /// for large kernels).
  bool keepResults = true;
};

class Verifier {
public:
  /// Compiles the candidate from `module` and the reference from
  /// `referenceModule` (the original program; `module` itself when null):
  /// unplanned, on the CPU or with plain plans on the GPU (see ReferenceOn).
  /// `candidateMode` RunnerMode::Cpu checks the candidate's linalg program
  /// itself on the host (no GPU: what it computes, not its GPU code). The
  /// reference accumulates its reductions in f64 unless `wideReductions` is
  /// off (a bit-exact comparison of two programs on the host).
  static llvm::Expected<std::unique_ptr<Verifier>>
  create(ModuleOp module, llvm::StringRef entry,
         ModuleOp referenceModule = nullptr,
         ReferenceOn referenceOn = ReferenceOn::Auto,
         RunnerMode candidateMode = RunnerMode::Planned,
         bool wideReductions = true);
  /// Compiles the candidate from `module` and checks it against `reference`.
  static llvm::Expected<std::unique_ptr<Verifier>>
  create(ModuleOp module, llvm::StringRef entry,
         std::shared_ptr<SharedReference> reference);
  /// Runs the trials. Fails only when something could not run (compile
  /// error, CUDA error, no GPU); wrong results are a report with ok = false.
  llvm::Expected<VerifyReport> verify(const VerifyOptions &options);

  /// The entry's argument types (the same on both sides).
  llvm::ArrayRef<MemRefType> getArgTypes() const {
    return candidate->getArgTypes();
  }

private:
  /// A verifier of `candidate` against `reference` once their signatures
  /// are checked to agree.
  static llvm::Expected<std::unique_ptr<Verifier>>
  assemble(std::unique_ptr<Runner> candidate,
           std::shared_ptr<SharedReference> reference, llvm::StringRef entry);

  std::unique_ptr<Runner> candidate;
  std::shared_ptr<SharedReference> shared;
  Runner *reference = nullptr;
};

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_VERIFIER_H
