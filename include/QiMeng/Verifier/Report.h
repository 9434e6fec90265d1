//===- Report.h - Verifier results as JSON ----------------------*- C++ -*-===//
//
// The machine-readable form of what the runner and the verifier measured
// (qimeng-run --report, the pass-level verify API). Field names are
// documented in docs/user-guide.md; times are in milliseconds.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_REPORT_H
#define QIMENG_VERIFIER_REPORT_H

#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Verifier/Verifier.h"

#include "llvm/Support/JSON.h"

namespace mlir::qimeng {

/// {"name", "compute_capability", "multiprocessors", "l2_bytes",
///  "driver_version", "clock_khz"?, "memory_clock_khz"?}
llvm::json::Object toJSON(const cuda::DeviceInfo &device);

/// {"warmup", "runs", "l2_flush_bytes", "min_ms", "median_ms", "mean_ms",
///  "stddev_ms", "max_ms"}
llvm::json::Object toJSON(const Timing &timing);

/// {"ok", "reference_on", "trials": [{"seed", "ok", "reason"?, "poisoned",
///  "note"?, "outputs": [{"name", "ok", "max_abs_error", "max_rel_error",
///  "first_mismatch"?, "reason"?}]}], "timing"?: {"candidate",
///  "reference"?}, "speedup", "suspicious_speedup"}
llvm::json::Object toJSON(const VerifyReport &report);

/// Writes `document` to `path` atomically (temporary file + rename), so a
/// reader never sees half a report.
llvm::Error writeJSON(llvm::StringRef path, const llvm::json::Value &document);

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_REPORT_H
