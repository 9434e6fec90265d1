//===- qimeng-opt.cpp - QiMeng's optimizer driver -------------------------===//
//
// mlir-opt with the qimeng dialect, QiMeng's passes and pipelines, and the
// upstream dialects and passes the GPU pipeline needs.
//
//   qimeng-opt --llm-plan --lower-to-nvvm kernel.mlir -o kernel.gpu.mlir
//   qimeng-opt --print-plan-schema
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::qimeng::registerAllDialects(registry);

  // Print the JSON Schema of a plan (what an LLM planner must answer in).
  for (int i = 1; i < argc; ++i) {
    if (llvm::StringRef(argv[i]) != "--print-plan-schema")
      continue;
    mlir::MLIRContext context(registry);
    llvm::outs() << llvm::formatv(
                        "{0:2}", llvm::json::Value(
                                     mlir::qimeng::getPlanJSONSchema(&context)))
                 << "\n";
    return 0;
  }

  mlir::qimeng::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "QiMeng optimizer driver\n\n"
      "  --llm-plan        plan and realize every kernel\n"
      "  --lower-to-nvvm   lower to NVVM and serialize to PTX/cubin\n"
      "  --print-plan-schema  print the JSON Schema of a plan and exit\n",
      registry));
}
