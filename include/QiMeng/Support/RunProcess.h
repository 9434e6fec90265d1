//===- RunProcess.h - Run a tool under a time limit -------------*- C++ -*-===//
//
// Runs another program (qimeng-run for the verifier, Python for the Triton
// micro-coder) with its output in a file, on one GPU when asked, killed when
// its time is up. Several threads may run their own at once.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_RUNPROCESS_H
#define QIMENG_SUPPORT_RUNPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::qimeng {

/// Exit codes of runProcess that are not the program's.
enum : int { kProcessNotStarted = -1, kProcessKilled = -2 };

/// Runs `args` (the program's path first) with stdout and stderr in
/// `logPath`, on GPU `device` when given (the only one it sees), killed
/// after `seconds`. Returns the exit code, kProcessNotStarted (`execError`
/// says why) or kProcessKilled (a signal or the time limit).
int runProcess(const std::string &program, llvm::ArrayRef<std::string> args,
               llvm::StringRef logPath, std::optional<int> device,
               unsigned seconds, std::string *execError = nullptr);

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_RUNPROCESS_H
