//===- fuzz-mlir-input.cpp - MLIR text through QiMeng's pipeline ----------===//
//
// The bytes are a kernel module, as `qimeng-opt --llm-plan` reads one: parsed
// (and verified) with every dialect QiMeng registers, then compiled by the
// llm-plan pipeline with no LLM (the built-in planner and micro-coder: record
// equal dims, prepare, split reductions, plan, tune, bufferize, apply plan).
// With QIMENG_FUZZ_LOWER=1 the result is also lowered to PTX by
// lower-to-nvvm{format=isa}, which needs no CUDA toolkit. Whatever the bytes,
// the answer must be a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "QiMeng/InitAll.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::qimeng;

/// The pipeline each input is compiled with.
static std::string pipeline = "llm-plan";

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::setUpCompiler();
  (void)fuzz::getRegistry();
  if (const char *lower = std::getenv("QIMENG_FUZZ_LOWER");
      lower && llvm::StringRef(lower) == "1")
    pipeline += ",lower-to-nvvm{format=isa}";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  // A context per input: nothing one input makes can change the next.
  MLIRContext context(fuzz::getRegistry(), MLIRContext::Threading::DISABLED);
  ErrorCollector errors(&context);
  std::string text = fuzz::asString(data, size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &context, "input");
  if (!module)
    return 0;
  PassManager pm(&context);
  std::string message;
  llvm::raw_string_ostream os(message);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    fuzz::reportBug("the pipeline '" + pipeline +
                    "' does not parse: " + message);
  (void)pm.run(*module);
  return 0;
}
