//===- BuiltinMicroCoder.cpp - Plans to transform scripts -----------------===//
//
// Each macro action becomes a few transform-dialect operations (one step of
// a transform script); then the tiled loops are mapped to gpu.launch and
// vectors lowered to what the NVVM backend takes. Payload ops are found again
// by their qimeng.tag, serial loops by a qimeng.loop name. This file checks
// the plan as a whole and assembles the script's sequences.
//
//===----------------------------------------------------------------------===//

#include "ScriptBuilder.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::microcoder;

/// Looks ahead over the plan for each target's tiles: the copies of a
/// promotion are spread over the threads that the later thread tile creates.
LogicalResult ScriptBuilder::precompute() {
  for (MacroActionOpInterface action : plan.getActions()) {
    // Every target of any action needs its tiles (checked below).
    TargetState &state = targets[action.getTargetTag()];
    if (!llvm::is_contained(tagOrder, action.getTargetTag().str()))
      tagOrder.push_back(action.getTargetTag().str());
    auto tile = dyn_cast<TileOp>(action.getOperation());
    // What the one wgmma transform needs from the other actions.
    if (auto mma = dyn_cast<MmaOp>(action.getOperation())) {
      state.wgmma |= mma.getKind() == MmaKind::wgmma;
      state.mmaSync |= mma.getKind() == MmaKind::mma_sync;
    }
    if (auto pipeline = dyn_cast<PipelineOp>(action.getOperation()))
      state.stages = pipeline.getStages();
    if (auto fuse = dyn_cast<FuseOp>(action.getOperation()))
      (fuse.getKind() == FuseKind::producer ? state.fusedFill
                                            : state.fusedConsumer) =
          fuse.getOp().str();
    if (!tile) {
      if (state.blockTile.empty())
        return action->emitOpError()
               << "comes before the block tile of '" << action.getTargetTag()
               << "'; the block tile must come first";
      continue;
    }
    ArrayRef<int64_t> sizes = tile.getSizes();
    SmallVector<int64_t> *slot = nullptr;
    switch (tile.getLevel()) {
    case TileLevel::block:
      slot = &state.blockTile;
      break;
    case TileLevel::reduction:
      slot = &state.reductionTile;
      break;
    case TileLevel::thread:
      slot = &state.threadTile;
      break;
    case TileLevel::warp:
      slot = &state.warpTile;
      state.lanes = tile.getLanes();
      break;
    }
    if (!slot->empty())
      return tile.emitOpError()
             << "tiles '" << tile.getTarget() << "' to "
             << stringifyTileLevel(tile.getLevel())
             << " a second time; the built-in micro-coder takes one tile "
                "per level";
    // Blocks take any number of loops (numbered along x past three).
    if (tile.getLevel() != TileLevel::reduction &&
        tile.getLevel() != TileLevel::block &&
        llvm::count_if(sizes, [](int64_t s) { return s > 0; }) > 3)
      return tile.emitOpError() << "maps more than 3 loops to GPU "
                                << stringifyTileLevel(tile.getLevel())
                                << "s; the built-in micro-coder maps at most 3";
    if (tile.getLevel() != TileLevel::block && state.blockTile.empty())
      return tile.emitOpError()
             << "comes before the block tile of '" << tile.getTarget()
             << "'; the block tile must come first";
    slot->assign(sizes.begin(), sizes.end());
  }
  for (auto &[tag, state] : targets) {
    // A wgmma kernel's warp tile is its consumer warpgroups' rows; its
    // threads are those warpgroups and the producer's (emitWgmma checks).
    if (state.wgmma) {
      // Rows are the third loop from the end (after any batch loop).
      size_t rows = state.warpTile.size() >= 3 ? state.warpTile.size() - 3 : 0;
      if (state.warpTile.empty() ||
          state.blockTile.size() != state.warpTile.size() ||
          state.warpTile[rows] <= 0)
        return plan.emitOpError()
               << "target '" << tag
               << "' takes wgmma: it needs a warp tile (the rows of each "
                  "consumer warpgroup)";
      state.blockDims = {
          (state.blockTile[rows] / state.warpTile[rows] + 1) * 128, 1, 1};
      continue;
    }
    // An mma.sync kernel takes a fill that has no tiles of its own into its
    // accumulators, and such an elementwise consumer into its epilogue;
    // other fusions merge tiled loops (emitFuse).
    if (!state.mmaSync || llvm::is_contained(tagOrder, state.fusedFill))
      state.fusedFill.clear();
    if (!state.mmaSync || llvm::is_contained(tagOrder, state.fusedConsumer))
      state.fusedConsumer.clear();
    // Every action checked above that the block tile came first.
    if (state.threadTile.empty() && state.warpTile.empty())
      return plan.emitOpError() << "target '" << tag
                                << "' has no thread or warp tile; every "
                                   "operation of a kernel must be mapped to "
                                   "GPU threads";
    if (!state.threadTile.empty() && !state.warpTile.empty())
      return plan.emitOpError()
             << "target '" << tag
             << "' has both a thread and a warp tile; the built-in "
                "micro-coder maps each target to one of them";
    bool warps = !state.warpTile.empty();
    ArrayRef<int64_t> inner = warps ? state.warpTile : state.threadTile;
    // Threads (or warps) along each mapped dimension: block tile / tile.
    FailureOr<SmallVector<int64_t>> threadsPerLoop =
        getThreadsPerLoop(state.blockTile, inner);
    if (failed(threadsPerLoop))
      return plan.emitOpError()
             << (warps ? "warp" : "thread") << " tile " << list(inner)
             << " of '" << tag << "' does not divide its block tile "
             << list(state.blockTile);
    SmallVector<int64_t> perDim = std::move(*threadsPerLoop);
    if (!warps) {
      // The loops the thread tile maps (ScriptBuilder::emitTile's counts).
      perDim.clear();
      for (int64_t c : getMappedThreadCounts(state.blockTile, inner))
        if (c > 0)
          perDim.push_back(c);
    }
    if (perDim.size() > 3)
      return plan.emitOpError()
             << "target '" << tag << "' maps " << perDim.size()
             << " loops to threads, at most 3 can be";
    std::reverse(perDim.begin(), perDim.end());
    int64_t total = 1;
    for (int64_t n : perDim)
      // Saturate: each factor and the product stay far from overflow.
      total = std::min<int64_t>(total * std::min<int64_t>(n, 1 << 20), 1 << 30);
    if (warps && state.lanes != kWarpSize) {
      // Every warp of the block shares its one warp tile.
      if (total != 1)
        return plan.emitOpError()
               << "target '" << tag << "' shares each warp tile by "
               << state.lanes << " lanes, but its block tile "
               << list(state.blockTile) << " holds " << total
               << " warp tiles; lanes above 32 need one warp tile per block";
      total = state.lanes;
      state.blockDims = {total, 1, 1};
    } else if (warps) {
      // Warps are numbered linearly over a 1-D block of threads.
      total = std::min<int64_t>(total * kWarpSize, 1 << 30);
      state.blockDims = {total, 1, 1};
    } else {
      for (auto [i, n] : llvm::enumerate(perDim))
        state.blockDims[i] = n;
    }
    if (total > 1024)
      return plan.emitOpError() << "target '" << tag << "' needs " << total
                                << " threads per block, at most 1024";
  }
  return success();
}

FailureOr<std::string> ScriptBuilder::build() {
  if (failed(precompute()))
    return failure();
  int applied = 0;
  for (MacroActionOpInterface action : plan.getActions()) {
    if (steps >= 0 && applied++ >= steps)
      break;
    Operation *op = action.getOperation();
    std::string comment = action.describe();
    llvm::replace(comment, '\n', ' ');
    os << "    // " << comment << "\n";
    LogicalResult result = success();
    // A wgmma target's tiles, stages and fused fill are parameters of the
    // one transform its mma action emits.
    if (targets[action.getTargetTag()].wgmma && !isa<MmaOp>(op)) {
      if (isa<PromoteOp, VectorizeOp, UnrollOp>(op))
        return op->emitOpError()
               << "applies to '" << action.getTargetTag()
               << "', which takes wgmma: its kernel takes tiles, a pipeline, "
                  "a fused fill and a fused elementwise consumer only";
      continue;
    }
    // A fill starting an mma.sync kernel's accumulators and a consumer run
    // in its epilogue are fused when the kernel's contraction becomes
    // mma.sync (emitEntry).
    if (auto fuse = dyn_cast<FuseOp>(op)) {
      const TargetState &host = targets[fuse.getTarget()];
      if (host.mmaSync && (fuse.getKind() == FuseKind::producer
                               ? host.fusedFill
                               : host.fusedConsumer) == fuse.getOp())
        continue;
    }
    if (auto tile = dyn_cast<TileOp>(op))
      result = emitTile(tile);
    else if (auto promote = dyn_cast<PromoteOp>(op))
      result = emitPromote(promote);
    else if (auto vec = dyn_cast<VectorizeOp>(op))
      result = emitVectorize(vec);
    else if (auto unroll = dyn_cast<UnrollOp>(op))
      result = emitUnroll(unroll);
    else if (auto pipeline = dyn_cast<PipelineOp>(op))
      result = emitPipeline(pipeline);
    else if (auto mma = dyn_cast<MmaOp>(op))
      result = emitMma(mma);
    else if (auto fuse = dyn_cast<FuseOp>(op))
      result = emitFuse(fuse);
    else
      result = op->emitOpError()
               << "is not supported by the built-in micro-coder yet";
    if (failed(result))
      return failure();
  }
  auto sequence = [](StringRef name, StringRef body) {
    return ("  transform.named_sequence @" + name +
            "(%root: !transform.any_op {transform.readonly}) {\n" + body +
            "    transform.yield\n  }\n")
        .str();
  };
  if (steps >= 0) {
    emitCleanup();
    return "module attributes {transform.with_named_sequence} {\n" +
           sequence(kRealizeSequence, script) + "}\n";
  }
  // Targets tiled to warps without tensor cores are shared by the lanes of
  // each warp: reductions and elementwise ops (distributeOverLanes, between
  // sequences).
  for (const std::string &tag : tagOrder) {
    const TargetState &state = targets[tag];
    if (state.warpTile.empty() || !state.mmaShape.empty() || state.wgmma)
      continue;
    auto op = dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(kernel, tag));
    if (!op)
      return plan.emitOpError()
             << "tiles '" << tag
             << "' to warps, but it is not a linalg op the lanes of a warp "
                "can share";
    warpOps.push_back(
        {tag, state.fusedInto.empty() ? tag : state.fusedInto, state.lanes});
  }
  emitMapping();
  std::string map = sequence(kMapSequence, script);
  script.clear();
  emitLowering();
  std::string lower = sequence(kLowerSequence, script);
  script.clear();
  emitPipelining();
  std::string pipeline = sequence(kPipelineSequence, script);
  script.clear();
  emitEntry();
  return "module attributes {transform.with_named_sequence} {\n" + map + lower +
         pipeline + sequence(kRealizeSequence, script) + "}\n";
}

void ScriptBuilder::expectOne(StringRef handle) {
  std::string count = fresh("count"), one = fresh("one");
  os << llvm::formatv("    {0} = transform.num_associations {1} : "
                      "(!transform.any_op) -> !transform.param<i64>\n"
                      "    {2} = transform.param.constant 1 : i64 -> "
                      "!transform.param<i64>\n"
                      "    transform.match.param.cmpi eq {0}, {2} : "
                      "!transform.param<i64>\n",
                      count, handle, one);
}

void ScriptBuilder::emitEntry() {
  auto include = [&](StringRef name) {
    os << llvm::formatv("    transform.include @{0} failures(propagate) "
                        "(%root) : (!transform.any_op) -> ()\n",
                        name);
  };
  include(kMapSequence);
  // The steps with no upstream transform op: tensor cores, warp sharing,
  // stage buffers (QiMeng's transform extension), each on the one launch
  // or loop the mapping named.
  for (MmaOp mma : mmas) {
    os << "    // " << mma.describe() << ": mma.sync\n";
    std::string launch =
        matchByAttr("gpu.launch", kLaunchTargetAttr, mma.getTarget(),
                    matchKernel(), "!transform.any_op");
    expectOne(launch);
    // The fill and the consumer fused into the kernel, by their handles.
    auto fused = [&](StringRef keyword, StringRef tag) -> std::string {
      if (tag.empty())
        return "";
      std::string handle = match(tag);
      expectOne(handle);
      return (" " + keyword + "(" + handle + " : !transform.any_op)").str();
    };
    const TargetState &state = targets[mma.getTarget()];
    std::string fill = fused("fill", state.fusedFill);
    std::string consumer = fused("consumer", state.fusedConsumer);
    os << llvm::formatv("    transform.qimeng.convert_to_mma_sync {0}{1}{2}{3} "
                        ": !transform.any_op\n",
                        launch, fill, consumer,
                        mma.getAType() == MmaType::tf32 ? " tf32" : "");
  }
  for (const WarpOp &warpOp : warpOps) {
    os << "    // '" << warpOp.tag << "' shared by the lanes of each "
       << (warpOp.lanes == kWarpSize ? "warp" : "block") << "\n";
    std::string launch =
        matchByAttr("gpu.launch", kLaunchTargetAttr, warpOp.launchTag,
                    matchKernel(), "!transform.any_op");
    expectOne(launch);
    os << llvm::formatv("    transform.qimeng.distribute_over_lanes {0} "
                        "{{op_tag = {1}{2}} : !transform.any_op\n",
                        launch, quote(warpOp.tag),
                        warpOp.lanes == kWarpSize
                            ? std::string()
                            : ", lanes = " + std::to_string(warpOp.lanes) +
                                  " : i64");
  }
  auto matchLoop = [&](const PipelineStep &step) {
    std::string loop = matchByAttr("scf.for", kLoopNameAttr, step.loop,
                                   matchKernel(), "!transform.any_op");
    expectOne(loop);
    return loop;
  };
  for (const PipelineStep &step : pipelines)
    os << llvm::formatv("    transform.qimeng.hoist_stage_buffers {0} "
                        "{{name = {1}} : !transform.any_op\n",
                        matchLoop(step), quote(step.loop));
  include(kLowerSequence);
  for (const PipelineStep &step : pipelines)
    os << llvm::formatv("    transform.qimeng.check_pipelinable {0} : "
                        "!transform.any_op\n",
                        matchLoop(step));
  include(kPipelineSequence);
  emitCleanup();
}

void ScriptBuilder::emitCleanup() {
  // Strided slices left by transposed reads: shuffles, which the NVVM
  // backend takes (the rewrite also folds and deduplicates constants).
  os << llvm::formatv("    transform.apply_patterns to {0} {{\n"
                      "      transform.apply_patterns.qimeng."
                      "lower_strided_slices\n"
                      "    } {{max_num_rewrites = 100000 : i64} : "
                      "!transform.any_op\n",
                      matchKernel());
}

std::string mlir::qimeng::getLoopName(StringRef tag, int64_t dim) {
  return (tag + "." + Twine(dim)).str();
}

FailureOr<BuiltinScript>
mlir::qimeng::buildBuiltinScript(PlanOp plan, func::FuncOp kernel, int steps) {
  ScriptBuilder builder(plan, kernel, steps);
  FailureOr<std::string> text = builder.build();
  if (failed(text))
    return failure();
  return BuiltinScript{std::move(*text), builder.takeUnrolls()};
}
