//===- ApplyPlan.cpp - Realize plans with the built-in micro-coder --------===//
//
// Realizes a qimeng.plan with MLIR's own transformations: the built-in
// micro-coder (lib/MicroCoder) writes a transform script for the plan, the
// transform interpreter applies it, and this pass checks the result (every
// named loop kept, nothing left outside gpu.launch). Reusing upstream
// transformations rather than re-implementing them is the point.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGAPPLYPLANPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Marks 128-bit vector loads and stores as 16-byte aligned. The planner only
/// vectorizes when every such access starts at a multiple of the vector length
/// in a buffer whose rows are multiples of it (and device allocations are
/// 256-byte aligned), so LLVM may emit ld/st.global.v4.
static void annotateAlignment(func::FuncOp kernel) {
  auto is128 = [](VectorType t) {
    return t.getRank() == 1 && t.getElementType().isIntOrFloat() &&
           t.getNumElements() * t.getElementType().getIntOrFloatBitWidth() ==
               128;
  };
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op); load && is128(load.getVectorType()))
      load.setAlignment(16);
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && is128(store.getVectorType()))
      store.setAlignment(16);
  });
}

class QiMengApplyPlanPass
    : public impl::QiMengApplyPlanPassBase<QiMengApplyPlanPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Plans are realized at the top level of the module only.
    WalkResult nested = module.walk([&](PlanOp plan) {
      if (plan->getParentOp() == module.getOperation())
        return WalkResult::advance();
      plan.emitOpError() << "must be at the top level of the module to be "
                            "realized";
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return signalPassFailure();
    for (PlanOp plan : llvm::to_vector(module.getOps<PlanOp>())) {
      if (failed(apply(module, plan)))
        return signalPassFailure();
      plan->erase();
    }
  }

private:
  LogicalResult apply(ModuleOp module, PlanOp plan) {
    auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
    if (!kernel)
      return plan.emitOpError() << "kernel @" << plan.getKernel()
                                << " is not a func.func of this module";
    for (Value arg : kernel.getArguments())
      if (isa<TensorType>(arg.getType()))
        return plan.emitOpError()
               << "kernel @" << plan.getKernel()
               << " is on tensors; bufferize it first (--llm-plan does)";
    FailureOr<BuiltinScript> script = buildBuiltinScript(plan, kernel, steps);
    if (failed(script))
      return failure();

    OwningOpRef<ModuleOp> transformModule =
        parseSourceString<ModuleOp>(script->text, &getContext());
    if (!transformModule)
      return plan.emitOpError()
             << "internal error: the generated transform script does not "
                "parse:\n"
             << script->text;
    Operation *entry = transform::detail::findTransformEntryPoint(
        kernel, *transformModule, "__transform_main");
    if (!entry)
      return plan.emitOpError() << "internal error: no transform entry point";
    // Diagnostics of the script point into its text; point them at the plan.
    std::string detail;
    LogicalResult result = success();
    {
      ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          detail += diag.str() + "\n";
        return success();
      });
      // The kernel is the payload root: the script cannot reach any other
      // function.
      result = transform::applyTransformNamedSequence(
          kernel, entry, *transformModule,
          transform::TransformOptions().enableExpensiveChecks(false));
    }
    if (failed(result))
      return plan.emitOpError()
             << "could not be realized by the built-in micro-coder: "
             << detail;
    // Strided slices left by transposed reads: turn them into shuffles, which
    // the NVVM backend takes.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(100000);
    if (failed(applyPatternsGreedily(kernel, std::move(patterns), config)))
      return plan.emitOpError() << "lowering vector slices did not converge";
    annotateAlignment(kernel);
    // Each unrolled loop must still be there (found by its name); then the
    // names are dropped.
    for (UnrollOp unroll : script->unrolls) {
      std::string name = getLoopName(unroll.getTarget(), unroll.getDim());
      bool found = false;
      kernel.walk([&](scf::ForOp loop) {
        auto attr = loop->getAttrOfType<StringAttr>(kLoopNameAttr);
        found |= attr && attr.getValue() == name;
      });
      if (!found)
        return unroll.emitOpError()
               << "found no loop to unroll: loop " << unroll.getDim()
               << " of '" << unroll.getTarget() << "' was not kept";
    }
    kernel.walk([](scf::ForOp loop) { loop->removeAttr(kLoopNameAttr); });
    if (steps >= 0)
      return success();
    // Everything must now run inside gpu.launch.
    WalkResult leftover = kernel.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>() || isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<scf::ForOp, scf::ForallOp, linalg::LinalgOp, vector::TransferReadOp,
              vector::TransferWriteOp>(op)) {
        op->emitOpError() << "was left outside any gpu.launch by the plan";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(leftover.wasInterrupted());
  }
};

} // namespace
} // namespace mlir::qimeng
