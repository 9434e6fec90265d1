//===- PhaseTimes.h - Where a verification's seconds went -------*- C++ -*-===//
//
// Checking a candidate on a large kernel takes seconds of host work around
// a sub-millisecond kernel: inputs generated and copied, outputs copied
// back and compared, the reference run, host code compiled. PhaseTimes adds
// up the wall-clock seconds of each such phase in this process, so
// qimeng-run's reports (and through them the plan search's) say where the
// time went.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_PHASETIMES_H
#define QIMENG_VERIFIER_PHASETIMES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>

namespace mlir::qimeng {

namespace phase {
/// The phases the runner and the verifier time; the verifier's reference
/// has its own, named with kReferencePhasePrefix first.
inline constexpr llvm::StringLiteral kCompile = "compile";
inline constexpr llvm::StringLiteral kFill = "fill";
inline constexpr llvm::StringLiteral kCopyIn = "copy-in";
inline constexpr llvm::StringLiteral kCall = "call";
inline constexpr llvm::StringLiteral kCopyOut = "copy-out";
inline constexpr llvm::StringLiteral kTiming = "timing";
inline constexpr llvm::StringLiteral kCompare = "compare";
} // namespace phase
inline constexpr llvm::StringLiteral kReferencePhasePrefix = "reference:";

/// Adds `seconds` to `phase`'s total in this process (thread-safe).
void addPhaseSeconds(llvm::StringRef phase, double seconds);

/// The totals since the last call (phase → seconds, rounded to the
/// millisecond), and starts them afresh.
llvm::json::Object takePhaseSeconds();

/// Adds the seconds from its construction to its destruction to a phase.
class PhaseTimer {
public:
  explicit PhaseTimer(std::string phase)
      : phase(std::move(phase)), start(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    addPhaseSeconds(phase, std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count());
  }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  std::string phase;
  std::chrono::steady_clock::time_point start;
};

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_PHASETIMES_H
