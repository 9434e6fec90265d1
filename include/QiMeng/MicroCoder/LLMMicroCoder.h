//===- LLMMicroCoder.h - Verified micro-coding by an LLM --------*- C++ -*-===//
//
// Micro coding: a plan is realized one step at a time. Each step (one
// action, or the few actions that only make a runnable kernel together) is
// written by the LLM as the whole kernel function, from the current verified
// implementation, the specification and the step's actions. A candidate is
// checked (CandidateCheck.h), compiled to PTX and run on the GPU against the
// specification (verifyStep); a failure goes back to the LLM with the
// diagnostic for a bounded number of rounds. After the last failed round
// QiMeng rolls back to the last verified implementation and realizes the
// step with the built-in micro-coder when it can (it works from the original
// kernel, so only while no LLM-written step was taken), else skips the
// step. The kernel ends as the last verified implementation.
//
// LLM-written code is taken only when it passed on the GPU. A step that could
// not be run is rolled back, as a failed one is; only on a machine without a
// GPU, and only with `allowUnverified`, is an LLM step checked as far as it
// can be (parse, checks, lowering to PTX) and kept marked unverified.
// Built-in steps (MLIR's own transformations) without a GPU are checked the
// same way and kept, marked unverified; with `requireGpuVerification` any
// step that did not run on a GPU is an error.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_MICROCODER_LLMMICROCODER_H
#define QIMENG_MICROCODER_LLMMICROCODER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/LLM/Client.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <nlohmann/json.hpp>

#include <functional>

namespace mlir::qimeng {

struct MicroCodeOptions {
  /// Null: every step is built-in (verified all the same).
  llm::Client *client = nullptr;
  unsigned rounds = 3;
  unsigned trials = 3;
  bool requireGpuVerification = false;
  /// On a machine without a GPU, keep LLM-written steps that compile to PTX
  /// (marked unverified) instead of rolling them back.
  bool allowUnverified = false;
  /// One line of progress.
  std::function<void(const llvm::Twine &)> progress;
};

/// The JSON schema of a micro-coder reply: {"mlir": "<the kernel's module>"}.
nlohmann::json getMicroCodeReplySchema();

/// The candidate of a micro-coder reply (`reply`: its JSON, checked against
/// getMicroCodeReplySchema()): its module checked by checkCandidate against
/// the kernel's name and printed function type, and parsed into `context`;
/// null with `reason` set when it is rejected.
OwningOpRef<ModuleOp> checkMicroCodeReply(const nlohmann::json &reply,
                                          llvm::StringRef kernelName,
                                          llvm::StringRef functionType,
                                          MLIRContext *context,
                                          std::string &reason);

/// Realizes `plan` on `kernel` (on memrefs, in `module`) step by step as
/// described above, replacing the kernel by the final implementation (and
/// moving its workgroup globals into `module`). Fills `report` with the
/// steps, attempts, rollbacks and verification results. Errors are emitted
/// on the plan.
LogicalResult microCodeKernel(ModuleOp module, PlanOp plan, func::FuncOp kernel,
                              const MicroCodeOptions &options,
                              nlohmann::json &report);

} // namespace mlir::qimeng

#endif // QIMENG_MICROCODER_LLMMICROCODER_H
