//===- fuzz-candidate-check.cpp - LLM-written MLIR, checked ---------------===//
//
// The bytes are the MLIR module an LLM micro-coder wrote for kernel @k of
// type (memref<64xf32>, memref<64xf32>) -> (): checkCandidate parses it with
// the allowed dialects only and checks it against the allow-list. A rejected
// candidate must say why; an accepted one must parse into the compiler's
// context and verify there.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "QiMeng/InitAll.h"
#include "QiMeng/MicroCoder/CandidateCheck.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::qimeng;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::clearLLMEnvironment();
  (void)fuzz::getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  // The compiler's context, fresh for each input.
  MLIRContext context(fuzz::getRegistry(), MLIRContext::Threading::DISABLED);
  ErrorCollector errors(&context);
  std::string reason;
  OwningOpRef<ModuleOp> candidate = checkCandidate(
      fuzz::asString(data, size), "k", "(memref<64xf32>, memref<64xf32>) -> ()",
      &context, reason);
  if (!candidate) {
    if (reason.empty())
      fuzz::reportBug("a rejected candidate has no reason");
    return 0;
  }
  if (failed(verify(*candidate)))
    fuzz::reportBug("an accepted candidate does not verify: " + errors.join());
  return 0;
}
