//===- CandidateCheck.h - Is an LLM's MLIR safe to take? --------*- C++ -*-===//
//
// The micro-coder's LLM answers with MLIR text. It is data: it is parsed in
// a fresh context that knows only the allowed dialects, and checked before
// anything compiles or runs it. A candidate must hold exactly the kernel
// function, with the kernel's signature, plus workgroup-memory globals; it
// may not call functions, use ops outside the allow-list, or touch memory
// other than the function's arguments and what the function allocates
// itself. Each rejection is one precise sentence the LLM can be sent back.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_MICROCODER_CANDIDATECHECK_H
#define QIMENG_MICROCODER_CANDIDATECHECK_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir::qimeng {

/// The dialects a candidate may use, as the prompt states them.
llvm::StringRef getAllowedDialectsText();

/// Parses `text` (in a context of the allowed dialects only) and checks it
/// against the kernel's name and its function type, printed; on success
/// the module is re-parsed into `context` and returned, else `reason` says
/// what is wrong.
OwningOpRef<ModuleOp> checkCandidate(llvm::StringRef text,
                                     llvm::StringRef kernelName,
                                     llvm::StringRef functionType,
                                     MLIRContext *context, std::string &reason);

} // namespace mlir::qimeng

#endif // QIMENG_MICROCODER_CANDIDATECHECK_H
