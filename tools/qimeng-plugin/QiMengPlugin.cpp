//===- QiMengPlugin.cpp - QiMeng as an mlir-opt plugin --------------------===//
//
//   mlir-opt --load-dialect-plugin=QiMengPlugin.so \
//            --load-pass-plugin=QiMengPlugin.so --qimeng-export-plan-json in.mlir
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Transforms/GPU/Passes.h"
#include "QiMeng/Transforms/Linalg/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QiMeng", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::qimeng::QiMengDialect>();
            mlir::qimeng::registerTransformDialectExtension(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QiMeng", LLVM_VERSION_STRING,
          []() { mlir::qimeng::registerQiMengPasses();
            mlir::qimeng::registerQiMengLinalgPasses();
            mlir::qimeng::registerQiMengGPUPasses(); }};
}
