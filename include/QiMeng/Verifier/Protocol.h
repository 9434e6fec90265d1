//===- Protocol.h - What qimeng-run reports and its callers read -*- C++ -*-===//
//
// qimeng-run writes one JSON report per run (and one JSON line per
// candidate of a batch); verifyStep and verifyCandidates (VerifyStep.cpp)
// read them in another process. Both sides spell the document with these
// names, so a renamed key or status cannot drift apart. The full document
// is described in docs/user-guide.md ("The report").
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_PROTOCOL_H
#define QIMENG_VERIFIER_PROTOCOL_H

#include "llvm/ADT/StringRef.h"

namespace mlir::qimeng::protocol {

/// The report's "format".
inline constexpr llvm::StringLiteral kFormat = "qimeng-run report 1";

/// Keys of the report (and of a batch's lines).
inline constexpr llvm::StringLiteral kStatusKey = "status";
inline constexpr llvm::StringLiteral kMessageKey = "message";
inline constexpr llvm::StringLiteral kVerifyKey = "verify";
inline constexpr llvm::StringLiteral kTimingKey = "timing";
/// A batch line's candidate (0-based, in the order of --candidates).
inline constexpr llvm::StringLiteral kIndexKey = "index";

/// Values of "status".
inline constexpr llvm::StringLiteral kOk = "ok";
inline constexpr llvm::StringLiteral kPass = "pass";
inline constexpr llvm::StringLiteral kFail = "fail";
inline constexpr llvm::StringLiteral kError = "error";
inline constexpr llvm::StringLiteral kReferenceError = "reference-error";
inline constexpr llvm::StringLiteral kNoGpu = "no-gpu";
inline constexpr llvm::StringLiteral kCrash = "crash";
inline constexpr llvm::StringLiteral kTimeout = "timeout";

/// Keys of a timing object ("timing": {"candidate": ..., "reference": ...}).
inline constexpr llvm::StringLiteral kWarmupKey = "warmup";
inline constexpr llvm::StringLiteral kRunsKey = "runs";
inline constexpr llvm::StringLiteral kFlushBytesKey = "l2_flush_bytes";
inline constexpr llvm::StringLiteral kMinMsKey = "min_ms";
inline constexpr llvm::StringLiteral kMedianMsKey = "median_ms";
inline constexpr llvm::StringLiteral kMeanMsKey = "mean_ms";
inline constexpr llvm::StringLiteral kStddevMsKey = "stddev_ms";
inline constexpr llvm::StringLiteral kMaxMsKey = "max_ms";

} // namespace mlir::qimeng::protocol

#endif // QIMENG_VERIFIER_PROTOCOL_H
