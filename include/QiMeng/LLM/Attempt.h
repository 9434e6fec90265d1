//===- Attempt.h - One round of asking the LLM, as recorded -*- C++ -*-===//
//
// The LLM micro-coders (MLIR steps, Triton modules) ask, check the answer
// and ask again with feedback, for a few rounds. Each round becomes one
// entry of a report's "attempts" array: its number, outcome, what went
// wrong, how long it took, and whatever the caller adds (tokens, cache).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_ATTEMPT_H
#define QIMENG_LLM_ATTEMPT_H

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace mlir::qimeng::llm {

class Attempt {
public:
  /// Starts round `round` (from 1); its clock runs from here.
  explicit Attempt(unsigned round);

  /// The entry, for fields beyond the common ones.
  nlohmann::json &json() { return entry; }

  /// Ends the round: writes "outcome", the detail under `detailKey` (when
  /// not empty) and "seconds", and appends the entry to `attempts`.
  void finish(nlohmann::json &attempts, llvm::StringRef outcome,
              llvm::StringRef detail, const char *detailKey = "detail");

private:
  std::chrono::steady_clock::time_point start;
  nlohmann::json entry;
};

/// The feedback that asks again after a checked answer failed with `why`:
/// `what` names the answer ("module", "implementation"), `field` the JSON
/// field the corrected whole must come in ("python", "mlir").
std::string repairMessage(llvm::StringRef what, llvm::StringRef why,
                          llvm::StringRef field);

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_ATTEMPT_H
