//===- InitAll.cpp - Register everything QiMeng tools need ----------------===//

#include "QiMeng/InitAll.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Transforms/GPU/Passes.h"
#include "QiMeng/Transforms/Linalg/Passes.h"
#include "QiMeng/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::qimeng::registerAllDialects(DialectRegistry &registry) {
  registry.insert<QiMengDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerTransformDialectExtension(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void mlir::qimeng::registerAllPasses() {
  mlir::registerAllPasses();
  registerQiMengPasses();
  registerQiMengLinalgPasses();
  registerQiMengGPUPasses();
  registerPipelines();
}
