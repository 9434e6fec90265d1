//===- ErrorCollector.h - Error diagnostics gathered into text --*- C++ -*-===//
//
// Many of QiMeng's checks run MLIR code that reports through diagnostics
// (op verifiers, the parser, pass pipelines, transform scripts) and turn
// what it said into a message of their own: a candidate's rejection, an
// LLM's feedback, a report entry. ErrorCollector captures the error
// diagnostics of a context while it lives, in place of the handler each of
// them used to write.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_ERRORCOLLECTOR_H
#define QIMENG_SUPPORT_ERRORCOLLECTOR_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <string>
#include <vector>

namespace mlir::qimeng {

/// Captures the diagnostics of `context` from construction to destruction
/// and keeps the errors' messages; nothing is printed meanwhile.
class ErrorCollector {
public:
  explicit ErrorCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors.push_back(diag.str());
          return success();
        }) {}

  const std::vector<std::string> &getErrors() const { return errors; }
  bool empty() const { return errors.empty(); }
  /// The first error, or `otherwise` when there was none.
  std::string first(llvm::StringRef otherwise = "") const {
    return errors.empty() ? otherwise.str() : errors.front();
  }
  /// Every error, in order, joined by `separator`; `otherwise` when none.
  std::string join(llvm::StringRef separator = "; ",
                   llvm::StringRef otherwise = "") const {
    return errors.empty() ? otherwise.str() : llvm::join(errors, separator);
  }

private:
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler;
};

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_ERRORCOLLECTOR_H
