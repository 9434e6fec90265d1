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

#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"
#include "QiMeng/MicroCoder/SharedBuffers.h"
#include "QiMeng/MicroCoder/TensorCores.h"
#include "QiMeng/MicroCoder/WarpReductions.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::qimeng;

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
    if (auto load = dyn_cast<vector::LoadOp>(op);
        load && is128(load.getVectorType()))
      load.setAlignment(16);
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && is128(store.getVectorType()))
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

/// The gpu.launch the script made for target `tag`, or null.
static gpu::LaunchOp findTargetLaunch(func::FuncOp kernel, StringRef tag) {
  return findByAttr<gpu::LaunchOp>(kernel, kLaunchTargetAttr, tag);
}

/// Upstream's pipeliner reads the memory space of every transfer_read in the
/// loop as an integer; one on a GPU address space would crash it. The vector
/// lowering leaves none on the fast path: check, and report otherwise.
static LogicalResult checkPipelinable(PipelineStep &step, func::FuncOp kernel) {
  scf::ForOp loop = findNamedLoop(kernel, step.loop);
  if (!loop)
    return step.op.emitOpError()
           << "found no loop to pipeline: the serial loop of '"
           << step.op.getTarget() << "' was not kept";
  for (Operation &op : *loop.getBody()) {
    auto read = dyn_cast<vector::TransferReadOp>(op);
    if (!read)
      continue;
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    if (type && type.getMemorySpace() &&
        !isa<IntegerAttr>(type.getMemorySpace()))
      return step.op.emitOpError()
             << "cannot pipeline '" << step.op.getTarget()
             << "': a read of its loop stays a masked vector transfer (do "
                "its tiles divide the problem?)";
  }
  return success();
}

/// Applies the named sequence `entryName` of `script` with `kernel` as the
/// payload root (the script cannot reach any other function); errors point
/// at the plan.
static LogicalResult runSequence(PlanOp plan, func::FuncOp kernel,
                                 ModuleOp script, StringRef entryName) {
  Operation *entry =
      transform::detail::findTransformEntryPoint(kernel, script, entryName);
  if (!entry)
    return plan.emitOpError()
           << "internal error: no transform entry point @" << entryName;
  // Diagnostics of the script point into its text; collect them.
  std::string detail;
  LogicalResult result = success();
  {
    ErrorCollector errors(kernel.getContext());
    result = transform::applyTransformNamedSequence(
        kernel, entry, script,
        transform::TransformOptions().enableExpensiveChecks(false));
    detail = errors.join("\n");
  }
  if (failed(result))
    return plan.emitOpError()
           << "could not be realized by the built-in micro-coder: " << detail;
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

  OwningOpRef<ModuleOp> transformModule =
      parseSourceString<ModuleOp>(script->text, kernel.getContext());
  if (!transformModule)
    return plan.emitOpError()
           << "internal error: the generated transform script does not "
              "parse:\n"
           << script->text;
  if (failed(runSequence(plan, kernel, *transformModule, kRealizeSequence)))
    return failure();
  if (steps < 0) {
    // Between the sequences: tensor-core targets become mma.sync, and the
    // shared tiles of each pipelined loop
    // become typed buffers that multi-buffering accepts.
    for (MmaOp mma : script->mmas) {
      gpu::LaunchOp launch = findTargetLaunch(kernel, mma.getTarget());
      if (!launch || failed(convertToMmaSync(launch)))
        return mma.emitOpError()
               << "could not rewrite the contraction of '" << mma.getTarget()
               << "' as tensor-core instructions";
    }
    for (auto &[tag, launchTag] : script->warpOps) {
      gpu::LaunchOp launch = findTargetLaunch(kernel, launchTag);
      if (!launch || failed(distributeOverLanes(launch, tag)))
        return plan.emitOpError() << "could not share the work of '" << tag
                                  << "' among the lanes of a warp";
    }
    for (PipelineStep &step : script->pipelines) {
      scf::ForOp loop = findNamedLoop(kernel, step.loop);
      if (!loop)
        return step.op.emitOpError()
               << "found no loop to pipeline: the serial loop of '"
               << step.op.getTarget() << "' was not kept";
      if (failed(hoistStageBuffers(loop, step.loop)))
        return step.op.emitOpError()
               << "could not prepare the shared-memory tiles of '"
               << step.op.getTarget() << "' for multi-buffering";
    }
    if (failed(runSequence(plan, kernel, *transformModule, kLowerSequence)))
      return failure();
    for (PipelineStep &step : script->pipelines)
      if (failed(checkPipelinable(step, kernel)))
        return failure();
    if (failed(runSequence(plan, kernel, *transformModule, kPipelineSequence)))
      return failure();
  }
  // Strided slices left by transposed reads: turn them into shuffles, which
  // the NVVM backend takes.
  RewritePatternSet patterns(kernel.getContext());
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(100000);
  if (failed(applyPatternsGreedily(kernel, std::move(patterns), config)))
    return plan.emitOpError() << "lowering vector slices did not converge";
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
