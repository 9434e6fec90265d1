//===- TritonMicroCoder.h - An LLM writes Triton, verified ------*- C++ -*-===//
//
// `--micro-coder=llm-triton`: for each kernel the Triton emitter writes
// (TritonEmitter.h), the LLM is asked for its own Triton module realizing
// the plan, with the emitted module as the interface and a correct
// starting point. An answer is Python, so it is checked before anything
// runs it: `python -m qimeng.triton verify` vets its syntax tree against an
// allow-list (imports, names, attributes), compiles it for the target and
// runs it against QiMeng's own CPU build of the kernel's function (on the
// GPU when there is one, else in Triton's interpreter). A rejected or wrong
// answer goes back to the LLM with the reason for a bounded number of
// rounds; after the last, the emitted module stands.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRITON_TRITONMICROCODER_H
#define QIMENG_TRITON_TRITONMICROCODER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/LLM/Client.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace mlir::qimeng::triton {

struct TritonCoderOptions {
  llm::Client *client = nullptr;
  unsigned rounds = 3;
  /// A Python with torch, triton and the qimeng package.
  std::string python = "python3";
  /// The compute capability the answer must compile for (90: sm_90).
  unsigned arch = 90;
  /// Seconds each verification step (compile, run) may take.
  unsigned timeoutSeconds = 300;
  /// An answer that could not be checked for want of a GPU (bf16 results
  /// in the interpreter) is kept, marked unverified, instead of dropped.
  bool allowUnverified = false;
  /// Only a check on a GPU counts; anything else is an error.
  bool requireGpuVerification = false;
  std::function<void(const llvm::Twine &)> progress;
};

/// The outcome of `python -m qimeng.triton verify` on one module.
struct TritonVerdict {
  enum Kind { Verified, Unverified, Failed, Rejected } kind;
  std::string reason;
  /// Where it ran: "cuda", "cpu" (Triton's interpreter) or "".
  std::string device;
  /// Unverified for want of a GPU.
  bool noGpu = false;
};

/// Verifies the Triton module `candidate` as a replacement for `emitted`
/// (the emitter's module of `kernel`, a function on tensors).
TritonVerdict verifyTritonModule(llvm::StringRef candidate,
                                 llvm::StringRef emitted, func::FuncOp kernel,
                                 const TritonCoderOptions &options);

/// The JSON schema of a reply: {"python": "<the module>"}.
nlohmann::json getTritonReplySchema();

/// The module to write for `kernel`: the LLM's, once verified, else
/// `emitted`. `report` gets the attempts and the outcome; `writtenBy` is
/// "llm" or "builtin". Fails (an error on `plan`) only where
/// requireGpuVerification cannot be met or the prompt cannot be made.
FailureOr<std::string> microCodeTriton(func::FuncOp kernel, PlanOp plan,
                                       llvm::StringRef emitted,
                                       const TritonCoderOptions &options,
                                       nlohmann::json &report);

} // namespace mlir::qimeng::triton

#endif // QIMENG_TRITON_TRITONMICROCODER_H
