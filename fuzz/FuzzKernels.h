//===- FuzzKernels.h - Kernels to check plans and replies on ----*- C++ -*-===//
//
// The plan and reply fuzz targets build what they read against real
// kernels: these three, prepared and planned by QiMeng's own passes
// (qimeng-prepare, qimeng-plan) once, at start-up, so they are what the
// planner sees and each holds its built-in plan. @relu is elementwise, @mm a
// matmul with its fill, @rowsum a row reduction.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_FUZZ_FUZZKERNELS_H
#define QIMENG_FUZZ_FUZZKERNELS_H

#include "FuzzSupport.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Transforms/GPU/Passes.h"
#include "QiMeng/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::qimeng::fuzz {

inline constexpr const char *kKernels = R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @relu(%x: tensor<256x512xf32>, %y: tensor<256x512xf32>)
    -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x512xf32>) outs(%y : tensor<256x512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}
func.func @mm(%A: tensor<128x64xf16>, %B: tensor<64x128xf16>,
              %C: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%C : tensor<128x128xf32>)
      -> tensor<128x128xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<128x64xf16>, tensor<64x128xf16>)
      outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @rowsum(%x: tensor<64x1024xf32>, %y: tensor<64xf32>)
    -> tensor<64xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%y : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
)mlir";

/// The kernels, prepared and planned in `context` (which must know the
/// qimeng, func, linalg, arith and tensor dialects).
inline OwningOpRef<ModuleOp> parsePlannedKernels(MLIRContext *context) {
  ErrorCollector errors(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kKernels, context);
  if (!module)
    llvm::report_fatal_error(llvm::Twine("the fixed kernels do not parse: ") +
                             errors.join());
  PassManager pm(context);
  pm.addPass(createQiMengPreparePass());
  pm.addPass(createQiMengPlanPass());
  if (failed(pm.run(*module)))
    llvm::report_fatal_error(
        llvm::Twine("the fixed kernels do not prepare and plan: ") +
        errors.join());
  return module;
}

/// The kernel called `name` in `module`, or the first one.
inline func::FuncOp getKernel(ModuleOp module, llvm::StringRef name) {
  if (auto named = module.lookupSymbol<func::FuncOp>(name))
    return named;
  return *module.getOps<func::FuncOp>().begin();
}

/// The built-in plan of `kernel` in `module`.
inline PlanOp getBuiltinPlan(ModuleOp module, func::FuncOp kernel) {
  for (PlanOp plan : module.getOps<PlanOp>())
    if (plan.getKernel() == kernel.getSymName())
      return plan;
  llvm::report_fatal_error(llvm::Twine("no built-in plan for @") +
                           kernel.getSymName());
}

} // namespace mlir::qimeng::fuzz

#endif // QIMENG_FUZZ_FUZZKERNELS_H
