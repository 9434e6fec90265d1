//===- GuardedParse.h - Parse untrusted MLIR text in a child first -*- C++
//-*-===//
//
// MLIR's parser has error paths that free an operation still in use: a
// value forward-referenced from one region and defined in a sibling region
// whose block is then rejected ("redefinition of block") is one. The heap
// is corrupted and the process aborts in some runs and not in others. The
// tools parse text they did not write (the user's input, an LLM's reply), so
// they first parse it in a forked child: when that child fails or dies, the
// caller reports it and never runs the parser's error path in-process.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_GUARDEDPARSE_H
#define QIMENG_SUPPORT_GUARDEDPARSE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace mlir::qimeng {

/// How a trial parse in a child process ended.
enum class TrialParse {
  /// It parsed (every part, for split input).
  Parsed,
  /// The parser reported errors and the child exited normally.
  Failed,
  /// The child died (the parser crashed), ran past its time, or could not
  /// be started; `describeTrial` says which.
  Crashed,
};

/// What a trial parse found, for a diagnostic.
struct TrialParseResult {
  TrialParse outcome = TrialParse::Parsed;
  /// Why the child did not finish ("killed by signal 6 (Aborted)" ...);
  /// empty unless `outcome` is Crashed.
  std::string why;
};

/// Options of a trial parse.
struct TrialParseOptions {
  /// The child prints the parser's diagnostics to stderr (as the tool's own
  /// parse would); otherwise they are discarded.
  bool printDiagnostics = false;
  /// Accept operations of dialects `registry` lacks.
  bool allowUnregisteredDialects = false;
  /// When non-empty, the buffer is split at lines holding this marker and
  /// each part is parsed on its own (mlir-opt's --split-input-file).
  std::string splitMarker;
  /// The child's time limit.
  unsigned timeoutSeconds = 300;
};

/// Parses the main buffer of `sourceMgr` into a fresh context of `registry`
/// in a forked child process, without verifying it, and says how that went.
/// Unless the child prints them, the parser's errors (at most 8 KiB) go to
/// `errors`.
TrialParseResult trialParse(const llvm::SourceMgr &sourceMgr,
                            const DialectRegistry &registry,
                            const TrialParseOptions &options = {},
                            std::string *errors = nullptr);

/// Parses `text` as a module in `context`, after a silent trial parse in a
/// child. On failure returns null with the parser's first error (or the
/// child's fate) in `error`; the in-process parser then never ran on it.
OwningOpRef<ModuleOp> parseModuleGuarded(llvm::StringRef text,
                                         MLIRContext *context,
                                         std::string &error,
                                         llvm::StringRef bufferName = "");

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_GUARDEDPARSE_H
