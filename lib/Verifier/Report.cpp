//===- Report.cpp - Verifier results as JSON ------------------------------===//

#include "QiMeng/Verifier/Report.h"
#include "QiMeng/Verifier/Protocol.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qimeng;

llvm::json::Object mlir::qimeng::toJSON(const cuda::DeviceInfo &device) {
  llvm::json::Object out{
      {"name", device.name},
      {"compute_capability",
       llvm::formatv("{0}.{1}", device.computeMajor, device.computeMinor)
           .str()},
      {"multiprocessors", device.multiprocessors},
      {"l2_bytes", device.l2Bytes},
      {"driver_version", device.driverVersion}};
  if (device.clockKHz)
    out["clock_khz"] = device.clockKHz;
  if (device.memoryClockKHz)
    out["memory_clock_khz"] = device.memoryClockKHz;
  return out;
}

llvm::json::Object mlir::qimeng::toJSON(const Timing &timing) {
  using namespace protocol;
  return llvm::json::Object{
      {kWarmupKey, timing.warmup},         {kRunsKey, timing.runs},
      {kFlushBytesKey, timing.flushBytes}, {kMinMsKey, timing.minMs},
      {kMedianMsKey, timing.medianMs},     {kMeanMsKey, timing.meanMs},
      {kStddevMsKey, timing.stddevMs},     {kMaxMsKey, timing.maxMs}};
}

/// A JSON number for an error that may be infinite (JSON has no inf).
static llvm::json::Value number(double value) {
  if (std::isfinite(value))
    return value;
  return nullptr;
}

static llvm::json::Object toJSON(const TrialReport &trial) {
  llvm::json::Array outputs;
  for (const OutputReport &output : trial.outputs) {
    const Comparison &c = output.comparison;
    llvm::json::Object entry{{"name", output.name},
                             {"ok", c.ok},
                             {"max_abs_error", number(c.maxAbsError)},
                             {"max_rel_error", number(c.maxRelError)},
                             {"margin", number(c.margin)}};
    if (c.firstMismatch >= 0)
      entry["first_mismatch"] = c.firstMismatch;
    if (!c.reason.empty())
      entry["reason"] = c.reason;
    outputs.push_back(std::move(entry));
  }
  llvm::json::Object entry{{"seed", static_cast<int64_t>(trial.seed)},
                           {"input_scale_log2", trial.inputScaleLog2},
                           {"ok", trial.ok},
                           {"poisoned", trial.poisoned},
                           {"candidate_wall_ms", trial.candidateMs},
                           {"reference_wall_ms", trial.referenceMs},
                           {"outputs", std::move(outputs)}};
  if (!trial.reason.empty())
    entry["reason"] = trial.reason;
  if (!trial.note.empty())
    entry["note"] = trial.note;
  return entry;
}

llvm::json::Object mlir::qimeng::toJSON(const VerifyReport &report) {
  llvm::json::Array trials;
  for (const TrialReport &trial : report.trials)
    trials.push_back(::toJSON(trial));
  llvm::json::Object out{{"ok", report.ok},
                         {"seed", static_cast<int64_t>(report.seed)},
                         {"reference_on", report.referenceOn},
                         {"trials", std::move(trials)},
                         {"speedup", number(report.speedup)},
                         {"suspicious_speedup", report.suspiciousSpeedup}};
  if (report.afterTiming)
    out["after_timing"] = ::toJSON(*report.afterTiming);
  if (report.candidateTiming) {
    llvm::json::Object timing{{"candidate", toJSON(*report.candidateTiming)}};
    if (report.referenceTiming)
      timing["reference"] = toJSON(*report.referenceTiming);
    out["timing"] = std::move(timing);
  }
  return out;
}

llvm::Error mlir::qimeng::writeJSON(llvm::StringRef path,
                                    const llvm::json::Value &document) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", document) << "\n";
    return llvm::Error::success();
  });
}
