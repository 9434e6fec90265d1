//===- Realize.cpp - Realize a plan with the built-in micro-coder ---------===//
//
// The built-in micro-coder (BuiltinMicroCoder.cpp) writes a transform script
// for the plan, the transform interpreter applies it, and this file checks
// the result (every named loop kept, nothing left outside gpu.launch).
// Reusing upstream transformations rather than re-implementing them is the
// point.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/MicroCoder/Realize.h"

#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"
#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::qimeng;

/// Marks vector loads and stores of 128 bits (or a multiple: a short row
/// read whole) as 16-byte aligned. The planner only vectorizes when every
/// such access starts at a multiple of 16 bytes in a buffer whose rows are
/// multiples of it (and device allocations are 256-byte aligned), so LLVM
/// may emit ld/st.global.v4.
static void annotateAlignment(func::FuncOp kernel) {
  auto is128 = [](VectorType t) {
    return t.getRank() == 1 && t.getElementType().isIntOrFloat() &&
           t.getElementType().getIntOrFloatBitWidth() >= 8 &&
           t.getNumElements() * t.getElementType().getIntOrFloatBitWidth() %
                   128 ==
               0;
  };
  kernel.walk([&](Operation *op) {
    // A larger alignment a transform proved stays.
    if (auto load = dyn_cast<vector::LoadOp>(op);
        load && is128(load.getVectorType()) &&
        load.getAlignment().value_or(0) < 16)
      load.setAlignment(16);
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && is128(store.getVectorType()) &&
        store.getAlignment().value_or(0) < 16)
      store.setAlignment(16);
  });
}

/// Returns the `OpTy` in `kernel` whose string attribute `attrName` is
/// `value`, or null.
template <typename OpTy>
static OpTy findByAttr(func::FuncOp kernel, StringRef attrName,
                       StringRef value) {
  OpTy found;
  kernel.walk([&](OpTy op) {
    auto attr = op->template getAttrOfType<StringAttr>(attrName);
    if (attr && attr.getValue() == value)
      found = op;
  });
  return found;
}

/// The serial loop named `name` (kLoopNameAttr), or null.
static scf::ForOp findNamedLoop(func::FuncOp kernel, StringRef name) {
  return findByAttr<scf::ForOp>(kernel, kLoopNameAttr, name);
}

/// The buffer name of the built-in scripts: diagnostics located there are
/// the script's own, the others point at the user's kernel.
static constexpr llvm::StringLiteral kScriptBufferName =
    "qimeng-builtin-script";

/// Whether `loc` points into a built-in script.
static bool isInScript(Location loc) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner);
        file && file.getFilename() == kScriptBufferName)
      found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Applies the named sequence `entryName` of `script` with `kernel` as the
/// payload root (the script cannot reach any other function). Errors of the
/// script's own ops become one error on the plan; those on the kernel's ops
/// (a reduction the lanes of a warp cannot share, ...) reach the user where
/// they are.
static LogicalResult runSequence(PlanOp plan, func::FuncOp kernel,
                                 ModuleOp script, StringRef entryName) {
  Operation *entry =
      transform::detail::findTransformEntryPoint(kernel, script, entryName);
  if (!entry)
    return plan.emitOpError()
           << "internal error: no transform entry point @" << entryName;
  std::vector<std::string> scriptErrors;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(
        kernel.getContext(), [&](Diagnostic &diag) -> LogicalResult {
          if (!isInScript(diag.getLocation()))
            return failure(); // on to the enclosing handlers
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            scriptErrors.push_back(diag.str());
          return success();
        });
    result = transform::applyTransformNamedSequence(
        kernel, entry, script,
        transform::TransformOptions().enableExpensiveChecks(false));
  }
  if (failed(result))
    return plan.emitOpError()
           << "could not be realized by the built-in micro-coder: "
           << llvm::join(scriptErrors, "\n");
  return success();
}

LogicalResult mlir::qimeng::realizePlan(PlanOp plan, func::FuncOp kernel,
                                        int steps) {
  for (Value arg : kernel.getArguments())
    if (isa<TensorType>(arg.getType()))
      return plan.emitOpError()
             << "kernel @" << plan.getKernel()
             << " is on tensors; bufferize it first (--llm-plan does)";
  FailureOr<BuiltinScript> script = buildBuiltinScript(plan, kernel, steps);
  if (failed(script))
    return failure();

  ParserConfig config(kernel.getContext());
  OwningOpRef<ModuleOp> transformModule =
      parseSourceString<ModuleOp>(script->text, config, kScriptBufferName);
  if (!transformModule)
    return plan.emitOpError()
           << "internal error: the generated transform script does not "
              "parse:\n"
           << script->text;
  // One script: the actions, the mapping, QiMeng's own steps (tensor cores,
  // warp sharing, stage buffers), the lowering and the pipelining.
  if (failed(runSequence(plan, kernel, *transformModule, kRealizeSequence)))
    return failure();
  annotateAlignment(kernel);
  // Each unrolled loop must still be there (found by its name); then the
  // names are dropped.
  for (UnrollOp unroll : script->unrolls) {
    if (!findNamedLoop(kernel,
                       getLoopName(unroll.getTarget(), unroll.getDim())))
      return unroll.emitOpError()
             << "found no loop to unroll: loop " << unroll.getDim() << " of '"
             << unroll.getTarget() << "' was not kept";
  }
  kernel.walk([](scf::ForOp loop) { loop->removeAttr(kLoopNameAttr); });
  kernel.walk(
      [](gpu::LaunchOp launch) { launch->removeAttr(kLaunchTargetAttr); });
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
