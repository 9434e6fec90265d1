//===- PhaseTimes.cpp - Where a verification's seconds went ---------------===//

#include "QiMeng/Verifier/PhaseTimes.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <mutex>

using namespace mlir::qimeng;

namespace {
std::mutex totalsMutex;
llvm::StringMap<double> &getTotals() {
  static llvm::StringMap<double> totals;
  return totals;
}
} // namespace

void mlir::qimeng::addPhaseSeconds(llvm::StringRef phase, double seconds) {
  std::lock_guard<std::mutex> lock(totalsMutex);
  getTotals()[phase] += seconds;
}

llvm::json::Object mlir::qimeng::takePhaseSeconds() {
  std::lock_guard<std::mutex> lock(totalsMutex);
  llvm::json::Object out;
  for (const auto &entry : getTotals())
    out[entry.getKey().str()] = std::round(entry.getValue() * 1000) / 1000;
  getTotals().clear();
  return out;
}
