//===- PlanResources.cpp - Does a plan fit the GPU? -----------------------===//

#include "QiMeng/Planner/PlanResources.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// What the plan does to one target, in plan order.
struct TargetPlan {
  SmallVector<int64_t> blockTile, reductionTile, threadTile, warpTile;
  /// Threads sharing each warp tile.
  int64_t lanes = 32;
  SmallVector<int64_t> promoted;
  /// Elements added to each row of the promoted tiles.
  int64_t sharedPad = 0;
  int64_t stages = 1, unroll = 1;
  /// An mma action asks for wgmma (one TMA + wgmma kernel: its own threads,
  /// dynamic shared memory and registers).
  bool wgmma = false;
};


/// Registers an estimate counts for indices, pointers and loop state.
constexpr int64_t kBaseRegisters = 24;

} // namespace

std::vector<std::string>
mlir::qimeng::checkPlanResources(PlanOp plan, func::FuncOp kernel,
                                 const TargetProfile &profile,
                                 std::vector<TargetResources> *resources) {
  std::vector<std::string> problems;
  llvm::StringMap<TargetPlan> targets;
  SmallVector<std::string> order;
  auto state = [&](StringRef tag) -> TargetPlan & {
    if (!targets.count(tag))
      order.push_back(tag.str());
    return targets[tag];
  };
  for (Operation &action : plan.getBody().front()) {
    if (auto tile = dyn_cast<TileOp>(action)) {
      TargetPlan &t = state(tile.getTarget());
      SmallVector<int64_t> sizes(tile.getSizes());
      switch (tile.getLevel()) {
      case TileLevel::block:
        t.blockTile = sizes;
        break;
      case TileLevel::reduction:
        t.reductionTile = sizes;
        break;
      case TileLevel::thread:
        t.threadTile = sizes;
        break;
      case TileLevel::warp:
        t.warpTile = sizes;
        t.lanes = tile.getLanes();
        break;
      }
    } else if (auto promote = dyn_cast<PromoteOp>(action)) {
      llvm::append_range(state(promote.getTarget()).promoted,
                         promote.getOperands());
      state(promote.getTarget()).sharedPad = promote.getPad();
    } else if (auto pipeline = dyn_cast<PipelineOp>(action)) {
      state(pipeline.getTarget()).stages = pipeline.getStages();
    } else if (auto unroll = dyn_cast<UnrollOp>(action)) {
      state(unroll.getTarget()).unroll *= unroll.getFactor();
    } else if (auto mma = dyn_cast<MmaOp>(action)) {
      state(mma.getTarget()).wgmma |= mma.getKind() == MmaKind::wgmma;
    }
  }

  for (const std::string &tag : order) {
    const TargetPlan &t = targets[tag];
    auto op = dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(kernel, tag));
    if (!op)
      continue; // the op verifiers report unknown targets
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    auto at = [](ArrayRef<int64_t> v, size_t i) -> int64_t {
      return i < v.size() ? v[i] : 0;
    };
    TargetResources r;
    r.target = tag;
    // A wgmma kernel: (block rows / warpgroup rows) consumer warpgroups and
    // a producer, its stages of A and B tiles (bf16/f16) in dynamic shared
    // memory, a consumer's share of the f32 accumulator tile in registers
    // (the micro-coder checks the rest of its shape).
    if (t.wgmma) {
      // (m, n, k): the last three loops (a batch loop before them takes
      // one batch per block).
      auto mnk = [](ArrayRef<int64_t> tile) {
        return tile.size() > 3 ? tile.take_back(3) : tile;
      };
      int64_t bm = at(mnk(t.blockTile), 0), bn = at(mnk(t.blockTile), 1);
      int64_t bk = at(mnk(t.reductionTile), 2), rows = at(mnk(t.warpTile), 0);
      if (bm <= 0 || bn <= 0 || bk <= 0 || rows <= 0 || bm % rows != 0) {
        problems.push_back(llvm::formatv(
            "'{0}': a wgmma plan needs block [M, N, 0], reduction [0, 0, K] "
            "and warp [rows, N, 0] tiles, the rows dividing M",
            tag));
        continue;
      }
      // The 16-deep slices of a (n, k) B step only 64 rows of A.
      if (readsNKRhs(op) && rows != 64) {
        problems.push_back(llvm::formatv(
            "'{0}': a wgmma kernel reading B (n, k) needs consumer "
            "warpgroups of 64 rows, not {1}",
            tag, rows));
        continue;
      }
      WgmmaOptions options;
      options.tileM = bm;
      options.tileN = bn;
      options.tileK = bk;
      options.warpgroupRows = rows;
      options.stages = std::max<int64_t>(2, t.stages);
      WgmmaResources kernel = getWgmmaResources(options);
      int64_t consumers = kernel.consumers;
      r.threadsPerBlock = kernel.threads;
      r.sharedBytes = kernel.sharedBytes;
      r.registersPerThread = kBaseRegisters + kernel.accumulatorRegisters;
      if (r.sharedBytes > kMaxWgmmaSharedBytes)
        problems.push_back(llvm::formatv(
            "'{0}': {1} bytes of dynamic shared memory per block ({2} "
            "stages of {3}x{4}x{5} tiles), more than the {6} a block may take",
            tag, r.sharedBytes, t.stages, bm, bn, bk, kMaxWgmmaSharedBytes));
      int64_t limit = consumers == 2 ? kWgmmaConsumerRegisters
                                     : kMaxRegistersPerThread;
      if (r.registersPerThread > limit)
        problems.push_back(llvm::formatv(
            "'{0}': about {1} registers per consumer thread ({2}x{3} f32 "
            "accumulators per warpgroup), more than the {4} it has",
            tag, r.registersPerThread, rows, bn, limit));
      if (resources)
        resources->push_back(r);
      continue;
    }

    // Block tiles within the loops.
    SmallVector<int64_t> block(extents);
    for (size_t d = 0; d < extents.size(); ++d) {
      int64_t size = at(t.blockTile, d);
      if (size <= 0)
        continue;
      if (!ShapedType::isDynamic(extents[d]) && size > extents[d])
        problems.push_back(llvm::formatv(
            "'{0}': the block tile {1} of loop {2} exceeds the loop's extent "
            "{3}",
            tag, size, d, extents[d]));
      block[d] = size;
    }

    // Threads per block, and the outputs each thread accumulates.
    ArrayRef<int64_t> perThread =
        t.warpTile.empty() ? t.threadTile : t.warpTile;
    // The built-in micro-coder maps block tile / thread (or warp) tile
    // threads to each loop: the inner tile must divide the block tile.
    if (!t.blockTile.empty() && !perThread.empty() &&
        failed(getThreadsPerLoop(t.blockTile, perThread)))
      problems.push_back(llvm::formatv(
          "'{0}': the {1} tile [{2}] does not divide the block tile [{3}]", tag,
          t.warpTile.empty() ? "thread" : "warp",
          llvm::make_range(perThread.begin(), perThread.end()),
          llvm::make_range(t.blockTile.begin(), t.blockTile.end())));
    int64_t threads = t.warpTile.empty() ? 1 : t.lanes;
    int64_t outputs = 1;
    for (size_t d = 0; d < extents.size(); ++d) {
      int64_t size = at(perThread, d);
      if (size <= 0 || ShapedType::isDynamic(block[d]))
        continue;
      threads *= (block[d] + size - 1) / size;
      if (iterators[d] == utils::IteratorType::parallel)
        outputs *= size;
    }
    if (!t.warpTile.empty())
      outputs = std::max<int64_t>(1, outputs / t.lanes);
    r.threadsPerBlock = threads;
    if (threads > profile.maxThreadsPerBlock)
      problems.push_back(llvm::formatv(
          "'{0}': {1} threads per block, more than the {2} the GPU allows", tag,
          threads, profile.maxThreadsPerBlock));

    // Shared memory: each promoted operand's tile (the box the built-in
    // micro-coder copies, its rows padded), once per pipeline stage.
    for (int64_t index : t.promoted) {
      if (index < 0 || index >= op->getNumOperands())
        continue;
      FailureOr<SmallVector<int64_t>> shape =
          getOperandTileShape(op, index, t.blockTile, t.reductionTile);
      if (failed(shape))
        continue; // the micro-coder rejects such a promotion itself
      int64_t elements = 1;
      for (auto [d, size] : llvm::enumerate(*shape))
        if (!ShapedType::isDynamic(size))
          elements *= size + (d + 1 == shape->size() ? t.sharedPad : 0);
      r.sharedBytes +=
          elements *
          getElementBytes(getElementTypeOrSelf(op->getOperand(index))) *
          std::max<int64_t>(1, t.stages);
    }
    if (r.sharedBytes > profile.sharedMemPerBlock)
      problems.push_back(llvm::formatv(
          "'{0}': {1} bytes of shared memory per block (promoted tiles x {2} "
          "stages), more than the {3} a block may allocate statically",
          tag, r.sharedBytes, std::max<int64_t>(1, t.stages),
          profile.sharedMemPerBlock));

    // Registers: accumulators, one reduction step of operand fragments per
    // unrolled iteration, and a base.
    int64_t fragments = 0;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      int64_t elements = 1;
      for (AffineExpr e : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          if (int64_t size = at(perThread, dim.getPosition()); size > 0)
            elements *= size;
      fragments += elements;
    }
    int64_t outputBytes = op.getNumDpsInits()
                              ? getElementBytes(getElementTypeOrSelf(
                                    op.getDpsInitOperand(0)->get()))
                              : 4;
    r.registersPerThread = kBaseRegisters +
                           outputs * std::max<int64_t>(1, outputBytes / 4) +
                           fragments * t.unroll;
    if (r.registersPerThread > kMaxRegistersPerThread)
      problems.push_back(llvm::formatv(
          "'{0}': about {1} registers per thread ({2} accumulators), more "
          "than the {3} a thread has: use smaller thread tiles",
          tag, r.registersPerThread, outputs, kMaxRegistersPerThread));
    if (resources)
      resources->push_back(r);
  }
  return problems;
}
