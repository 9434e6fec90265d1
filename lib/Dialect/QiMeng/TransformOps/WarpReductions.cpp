//===- WarpReductions.cpp - Reductions shared by the lanes of a warp ------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

/// Whether every shaped operand of `op` is indexed by a projected
/// permutation of its loops (constant 0 results allowed): what spreading
/// its loops over the lanes of a warp needs.
static bool isIndexedByProjections(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands())
    if (isa<ShapedType>(operand.get().getType()) &&
        !op.getMatchingIndexingMap(&operand).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return false;
  return true;
}

/// Iterations of a lane-strided loop each trip takes: independent loads in
/// flight per thread, which a memory-bound row needs to reach the bandwidth.
static constexpr uint64_t kLaneLoopUnroll = 4;

/// Who shares one tile of an op: the 32 lanes of a warp, or every thread of
/// the block (`lanes` of them, along x). `id` is this thread's number among
/// them; a thread strides by `count` over the shared loop.
struct Sharing {
  int64_t lanes;
  Value zero, count, id;
  bool isBlock() const { return lanes > qimeng::kWarpSize; }
};

/// The sharing of `launch`'s ops by `lanes` threads, at `b`; an error on
/// `op` when a block-wide sharing does not match the launch's threads.
static FailureOr<Sharing> buildSharing(OpBuilder &b, Location loc,
                                       gpu::LaunchOp launch,
                                       linalg::LinalgOp op, int64_t lanes) {
  if (lanes < qimeng::kWarpSize || lanes > 1024 ||
      lanes % qimeng::kWarpSize != 0)
    return op->emitOpError() << "cannot be shared by " << lanes
                             << " lanes: a multiple of 32 up to 1024 can";
  if (lanes > qimeng::kWarpSize) {
    auto constantOf = [](Value v) { return getConstantIntValue(v); };
    if (constantOf(launch.getBlockSizeX()) != lanes ||
        constantOf(launch.getBlockSizeY()) != 1 ||
        constantOf(launch.getBlockSizeZ()) != 1)
      return op->emitOpError()
             << "cannot be shared by " << lanes
             << " lanes: its launch does not have " << lanes
             << " threads along x (and one along y and z)";
  }
  Sharing sharing;
  sharing.lanes = lanes;
  sharing.zero = arith::ConstantIndexOp::create(b, loc, 0);
  sharing.count = arith::ConstantIndexOp::create(b, loc, lanes);
  if (sharing.isBlock())
    sharing.id = gpu::ThreadIdOp::create(b, loc, b.getIndexType(),
                                         gpu::DimensionAttr::get(
                                             b.getContext(), gpu::Dimension::x),
                                         b.getIndexAttr(lanes));
  else
    sharing.id = gpu::LaneIdOp::create(b, loc, b.getIndexType(),
                                       b.getIndexAttr(qimeng::kWarpSize));
  return sharing;
}

/// Whether this thread is the one that stores a shared tile's result.
static Value isFirstThread(OpBuilder &b, Location loc, const Sharing &s) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s.id, s.zero);
}

/// The loop `for i = id to extent step count`, unrolled so that each trip
/// issues several iterations' loads at once (the iterations left over run
/// in a second loop after it). Returns the values the two loops carry out.
static SmallVector<Value>
buildStridedLoop(OpBuilder &b, Location loc, const Sharing &s, Value extent,
                 ValueRange inits,
                 function_ref<void(OpBuilder &, Location, Value, ValueRange)>
                     body) {
  auto loop = scf::ForOp::create(b, loc, s.id, extent, s.count, inits, body);
  // If unrolling declines, the loop stays as it is (slower, equally
  // correct).
  FailureOr<UnrolledLoopInfo> unrolled =
      loopUnrollByFactor(loop, kLaneLoopUnroll);
  if (succeeded(unrolled) && unrolled->epilogueLoopOp)
    return SmallVector<Value>(unrolled->epilogueLoopOp->getResults());
  if (succeeded(unrolled) && unrolled->mainLoopOp)
    return SmallVector<Value>(unrolled->mainLoopOp->getResults());
  return SmallVector<Value>(loop->getResults());
}

/// Block-wide sharing: every warp's total (in all its lanes) meets the
/// others' in shared memory; returns them combined, in warp order, by
/// `combine`. `totals` are the values of one warp (a reduction's partial
/// result; an arg-reduction's value and index).
static SmallVector<Value>
combineWarps(OpBuilder &b, Location loc, gpu::LaunchOp launch,
             const Sharing &s, ValueRange totals,
             function_ref<SmallVector<Value>(OpBuilder &, ValueRange,
                                             ValueRange)>
                 combine) {
  int64_t warps = s.lanes / qimeng::kWarpSize;
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  SmallVector<Value> scratch;
  for (Value total : totals)
    scratch.push_back(launch.addWorkgroupAttribution(
        MemRefType::get({warps}, total.getType(), MemRefLayoutAttrInterface(),
                        space),
        loc));
  Value warpSize = arith::ConstantIndexOp::create(b, loc, qimeng::kWarpSize);
  Value warp = arith::DivUIOp::create(b, loc, s.id, warpSize);
  Value lane = arith::RemUIOp::create(b, loc, s.id, warpSize);
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, s.zero);
  scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &nb, Location nloc) {
    for (auto [total, buffer] : llvm::zip(totals, scratch))
      memref::StoreOp::create(nb, nloc, total, buffer, ValueRange{warp});
    scf::YieldOp::create(nb, nloc);
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> combined;
  for (Value buffer : scratch)
    combined.push_back(
        memref::LoadOp::create(b, loc, buffer, ValueRange{s.zero}));
  for (int64_t w = 1; w < warps; ++w) {
    Value at = arith::ConstantIndexOp::create(b, loc, w);
    SmallVector<Value> other;
    for (Value buffer : scratch)
      other.push_back(memref::LoadOp::create(b, loc, buffer, ValueRange{at}));
    combined = combine(b, combined, other);
  }
  return combined;
}

/// The reduction loop of `op`, whose parallel loops must have one
/// iteration per warp (an error on `op` otherwise).
static FailureOr<unsigned> getWarpReductionLoop(linalg::LinalgOp op) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  unsigned reductionLoop = 0;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (type == utils::IteratorType::reduction)
      reductionLoop = i;
    else if (extents[i] != 1)
      return op->emitOpError()
             << "cannot be reduced by the lanes of a warp: parallel loop " << i
             << " has " << extents[i]
             << " iterations per warp; the warp tile must be 1 along every "
                "parallel loop";
  }
  return reductionLoop;
}

/// The single combiner of `op`'s reduction and the value it folds into the
/// output, or null.
static Operation *getCombiner(linalg::LinalgOp op, Value &reduced) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op->getNumRegions() != 1)
    return nullptr;
  SmallVector<Operation *> combiners;
  SmallVector<BlockArgument> outputs(op.getRegionOutputArgs());
  reduced = matchReduction(outputs, 0, combiners);
  if (!reduced || combiners.size() != 1)
    return nullptr;
  return combiners.front();
}

std::optional<gpu::AllReduceOperation>
mlir::qimeng::getWarpReductionKind(linalg::LinalgOp op) {
  Value reduced;
  Operation *combiner = getCombiner(op, reduced);
  if (!combiner || combiner->getNumResults() != 1)
    return std::nullopt;
  Type type = combiner->getResult(0).getType();
  if (!type.isIntOrFloat() || (type.getIntOrFloatBitWidth() != 32 &&
                               type.getIntOrFloatBitWidth() != 64 &&
                               type.getIntOrFloatBitWidth() != 16))
    return std::nullopt;
  using Kind = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case([](arith::AddFOp) { return Kind::ADD; })
      .Case([](arith::AddIOp) { return Kind::ADD; })
      .Case([](arith::MulFOp) { return Kind::MUL; })
      .Case([](arith::MulIOp) { return Kind::MUL; })
      .Case([](arith::MaxNumFOp) { return Kind::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return Kind::MINNUMF; })
      .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
      .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
      .Case([](arith::MinSIOp) { return Kind::MINSI; })
      .Case([](arith::MaxUIOp) { return Kind::MAXUI; })
      .Case([](arith::MinUIOp) { return Kind::MINUI; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Clones the body of `op` (but its terminator) at `b` with `mapping`, each
/// linalg.index of loop d replaced by `indexOf(d)` (the op's loops becoming
/// a lane's loop, or one iteration).
static void cloneBody(OpBuilder &b, linalg::LinalgOp op, IRMapping &mapping,
                      function_ref<Value(unsigned)> indexOf) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), indexOf(index.getDim()));
      continue;
    }
    b.clone(inner, mapping);
  }
}

/// Indices of operand `operand` of `op` at loop position `reductionIndex`
/// of the reduction loop (every parallel loop at 0).
static SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                                     Value reductionIndex, Value zero) {
  SmallVector<Value> indices;
  for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
    // A constant (a kept unit dimension) is index 0.
    auto dim = dyn_cast<AffineDimExpr>(e);
    indices.push_back(dim && op.getIteratorTypesArray()[dim.getPosition()] ==
                                  utils::IteratorType::reduction
                          ? reductionIndex
                          : zero);
  }
  return indices;
}

/// The value of `value` (an integer or float of 8 to 64 bits) in the lane
/// whose id is this lane's xor `offset`: 32-bit shuffles, a narrower value
/// widened for it, a 64-bit one in two halves.
static Value shuffleXor(OpBuilder &b, Location loc, Value value,
                        int64_t offset) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  Value off = arith::ConstantIntOp::create(b, loc, i32, offset);
  Value width = arith::ConstantIntOp::create(b, loc, i32, qimeng::kWarpSize);
  auto shuffle = [&](Value word) {
    return gpu::ShuffleOp::create(b, loc, word, off, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  Type asInt = b.getIntegerType(bits);
  Value raw =
      type == asInt ? value : arith::BitcastOp::create(b, loc, asInt, value);
  Value moved;
  if (bits == 64) {
    Value lo = arith::TruncIOp::create(b, loc, i32, raw);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(
            b, loc, raw, arith::ConstantIntOp::create(b, loc, asInt, 32)));
    Value lo2 = arith::ExtUIOp::create(b, loc, asInt, shuffle(lo));
    Value hi2 = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, asInt, shuffle(hi)),
        arith::ConstantIntOp::create(b, loc, asInt, 32));
    moved = arith::OrIOp::create(b, loc, lo2, hi2);
  } else if (bits < 32) {
    moved = arith::TruncIOp::create(
        b, loc, asInt, shuffle(arith::ExtUIOp::create(b, loc, i32, raw)));
  } else {
    moved = shuffle(raw);
  }
  return type == asInt ? moved : arith::BitcastOp::create(b, loc, type, moved);
}

LogicalResult mlir::qimeng::distributeWarpReduction(gpu::LaunchOp launch,
                                                    StringRef tag,
                                                    int64_t lanes) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(launch, tag));
  if (!op)
    return launch.emitOpError()
           << "holds no linalg operation tagged '" << tag << "'";
  std::optional<gpu::AllReduceOperation> kind = getWarpReductionKind(op);
  Value reduced;
  Operation *combiner = getCombiner(op, reduced);
  if (!kind || !combiner || !op.hasPureBufferSemantics())
    return op->emitOpError()
           << "cannot be reduced by the lanes of a warp: it needs one output, "
              "one reduction loop and a single add, mul, min or max combiner "
              "on 16-, 32- or 64-bit values";
  if (!isIndexedByProjections(op))
    return op->emitOpError() << "cannot be reduced by the lanes of a warp: "
                                "an operand is not indexed by a projected "
                                "permutation of the loops";
  FailureOr<unsigned> reductionLoopOr = getWarpReductionLoop(op);
  if (failed(reductionLoopOr))
    return failure();
  unsigned reductionLoop = *reductionLoopOr;

  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<Sharing> sharingOr = buildSharing(b, loc, launch, op, lanes);
  if (failed(sharingOr))
    return failure();
  const Sharing &sharing = *sharingOr;
  Value zero = sharing.zero;
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  Value extent =
      getValueOrCreateConstantIndexOp(b, loc, ranges[reductionLoop].size);
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return op->emitOpError() << "has a combiner without a neutral element";
  Value init = arith::ConstantOp::create(b, loc, *neutral);
  BlockArgument output = op.getRegionOutputArgs().front();
  // The op's own combiner on two partial results.
  auto combine = [&](OpBuilder &nb, Value acc, Value other) {
    IRMapping step;
    step.map(output, acc);
    step.map(reduced, other);
    return nb.clone(*combiner, step)->getResult(0);
  };

  // Each thread folds iterations id, id + lanes, ... of the reduction loop
  // with the op's own body, starting from the neutral element.
  Block *body = op.getBlock();
  SmallVector<Value> folded = buildStridedLoop(
      b, loc, sharing, extent, ValueRange{init},
      [&](OpBuilder &nb, Location nloc, Value k, ValueRange acc) {
        IRMapping mapping;
        for (OpOperand *input : op.getDpsInputOperands()) {
          Value value = input->get();
          if (isa<MemRefType>(value.getType()))
            value = memref::LoadOp::create(nb, nloc, value,
                                           getIndices(op, *input, k, zero));
          mapping.map(op.getMatchingBlockArgument(input), value);
        }
        mapping.map(output, acc.front());
        cloneBody(nb, op, mapping, [&](unsigned dim) {
          return dim == reductionLoop ? k : zero;
        });
        Value yielded = body->getTerminator()->getOperand(0);
        scf::YieldOp::create(nb, nloc, mapping.lookupOrDefault(yielded));
      });
  Value partial = folded.front();
  // 32-bit values: a subgroup reduction, lowered to shuffles below; 16- and
  // 64-bit ones (which that lowering does not take): the butterfly here,
  // with the op's own combiner.
  Value total;
  if (partial.getType().getIntOrFloatBitWidth() == 32) {
    total = gpu::SubgroupReduceOp::create(b, loc, partial, *kind,
                                          /*uniform=*/true);
  } else {
    total = partial;
    for (int64_t offset = 1; offset < kWarpSize; offset *= 2)
      total = combine(b, total, shuffleXor(b, loc, total, offset));
  }
  if (sharing.isBlock())
    total = combineWarps(b, loc, launch, sharing, total,
                         [&](OpBuilder &nb, ValueRange acc, ValueRange other) {
                           return SmallVector<Value>{
                               combine(nb, acc.front(), other.front())};
                         })
                .front();
  // The first thread folds the total into the output element.
  OpOperand *init0 = op.getDpsInitOperand(0);
  SmallVector<Value> outIndices = getIndices(op, *init0, zero, zero);
  Value old = memref::LoadOp::create(b, loc, init0->get(), outIndices);
  Value combined = combine(b, old, total);
  scf::IfOp::create(b, loc, isFirstThread(b, loc, sharing),
                    [&](OpBuilder &nb, Location nloc) {
                      memref::StoreOp::create(nb, nloc, combined, init0->get(),
                                              outIndices);
                      scf::YieldOp::create(nb, nloc);
                    });
  // The block's next op reads what this one wrote.
  if (sharing.isBlock())
    gpu::BarrierOp::create(b, loc);
  op->erase();

  // Shuffles: the NVVM lowering takes integer subgroup reductions only.
  RewritePatternSet patterns(launch.getContext());
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, kWarpSize);
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(100000);
  if (failed(applyPatternsGreedily(launch, std::move(patterns), config)))
    return launch.emitOpError()
           << "did not converge while lowering warp reductions to shuffles";
  return success();
}

LogicalResult mlir::qimeng::distributeWarpElementwise(gpu::LaunchOp launch,
                                                      StringRef tag,
                                                      int64_t lanes) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(launch, tag));
  if (!op)
    return launch.emitOpError()
           << "holds no linalg operation tagged '" << tag << "'";
  if (op.getNumReductionLoops() != 0 || !op.hasPureBufferSemantics() ||
      op->getNumRegions() != 1)
    return op->emitOpError() << "cannot be shared by the lanes of a warp: it "
                                "needs buffers and no reduction loop";
  if (!isIndexedByProjections(op))
    return op->emitOpError() << "cannot be shared by the lanes of a warp: "
                                "an operand is not indexed by a projected "
                                "permutation of the loops";
  // The loop the lanes stride: the innermost one that is not of one
  // iteration; every other must have one.
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  std::optional<unsigned> strided;
  for (auto [i, extent] : llvm::enumerate(extents)) {
    if (extent == 1)
      continue;
    if (strided)
      return op->emitOpError()
             << "cannot be shared by the lanes of a warp: loops " << *strided
             << " and " << i << " have more than one iteration per warp; "
             << "the warp tile must leave one loop at most";
    strided = i;
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<Sharing> sharingOr = buildSharing(b, loc, launch, op, lanes);
  if (failed(sharingOr))
    return failure();
  const Sharing &sharing = *sharingOr;
  Value zero = sharing.zero;
  // One iteration of the op at index `at` of the strided loop: loads, the
  // body, stores.
  Block *body = op.getBlock();
  auto emitIteration = [&](OpBuilder &nb, Location nloc, Value at) {
    auto indices = [&](OpOperand &operand) {
      SmallVector<Value> result;
      for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        result.push_back(
            strided && dim && dim.getPosition() == *strided ? at : zero);
      }
      return result;
    };
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      // Inputs are loaded; outputs too when the body reads them.
      bool isInit = op.isDpsInit(&operand);
      if (isa<MemRefType>(value.getType()) &&
          (!isInit || op.payloadUsesValueFromOperand(&operand)))
        value = memref::LoadOp::create(nb, nloc, value, indices(operand));
      if (!isInit || op.payloadUsesValueFromOperand(&operand))
        mapping.map(op.getMatchingBlockArgument(&operand), value);
    }
    cloneBody(nb, op, mapping, [&](unsigned dim) {
      return strided && dim == *strided ? at : zero;
    });
    for (auto [init, yielded] : llvm::zip(op.getDpsInitsMutable(),
                                          body->getTerminator()->getOperands()))
      memref::StoreOp::create(nb, nloc, mapping.lookupOrDefault(yielded),
                              init.get(), indices(init));
  };
  if (strided) {
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    Value extent =
        getValueOrCreateConstantIndexOp(b, loc, ranges[*strided].size);
    buildStridedLoop(b, loc, sharing, extent, ValueRange{},
                     [&](OpBuilder &nb, Location nloc, Value j, ValueRange) {
                       emitIteration(nb, nloc, j);
                       scf::YieldOp::create(nb, nloc);
                     });
  } else {
    scf::IfOp::create(b, loc, isFirstThread(b, loc, sharing),
                      [&](OpBuilder &nb, Location nloc) {
                        emitIteration(nb, nloc, zero);
                        scf::YieldOp::create(nb, nloc);
                      });
  }
  // The block's next op reads what this one wrote.
  if (sharing.isBlock())
    gpu::BarrierOp::create(b, loc);
  op->erase();
  return success();
}

/// The parts of an arg-reduction body (argmax, argmin): the comparison of
/// the element with the running best, and the yielded element and index.
struct ArgReduction {
  arith::CmpFOp cmpf;
  arith::CmpIOp cmpi;
  Value element, index;
};

static std::optional<ArgReduction> matchArgReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 2 || op.getNumReductionLoops() != 1 ||
      op->getNumRegions() != 1 || op.getNumDpsInputs() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<BlockArgument> outs(op.getRegionOutputArgs());
  auto bestValue = yield.getOperand(0).getDefiningOp<arith::SelectOp>();
  auto bestIndex = yield.getOperand(1).getDefiningOp<arith::SelectOp>();
  if (!bestValue || !bestIndex ||
      bestValue.getCondition() != bestIndex.getCondition() ||
      bestValue.getFalseValue() != outs[0] ||
      bestIndex.getFalseValue() != outs[1])
    return std::nullopt;
  ArgReduction match;
  match.element = bestValue.getTrueValue();
  match.index = bestIndex.getTrueValue();
  Operation *cmp = bestValue.getCondition().getDefiningOp();
  if (auto f = dyn_cast_or_null<arith::CmpFOp>(cmp)) {
    if (f.getLhs() != match.element || f.getRhs() != outs[0] ||
        !llvm::is_contained(
            {arith::CmpFPredicate::OGT, arith::CmpFPredicate::OLT},
            f.getPredicate()))
      return std::nullopt;
    match.cmpf = f;
  } else if (auto i = dyn_cast_or_null<arith::CmpIOp>(cmp)) {
    if (i.getLhs() != match.element || i.getRhs() != outs[0] ||
        !llvm::is_contained(
            {arith::CmpIPredicate::sgt, arith::CmpIPredicate::slt,
             arith::CmpIPredicate::ugt, arith::CmpIPredicate::ult},
            i.getPredicate()))
      return std::nullopt;
    match.cmpi = i;
  } else {
    return std::nullopt;
  }
  unsigned bits = outs[0].getType().getIntOrFloatBitWidth();
  unsigned indexBits = outs[1].getType().isIndex()
                           ? 64
                           : outs[1].getType().getIntOrFloatBitWidth();
  if (bits < 8 || bits > 64 || indexBits < 8 || indexBits > 64)
    return std::nullopt;
  return match;
}

bool mlir::qimeng::isWarpArgReduction(linalg::LinalgOp op) {
  return matchArgReduction(op).has_value();
}

/// An arg-reduction tiled to warps: each lane scans iterations lane, lane +
/// 32, ... from the output's values (the op's own body, so the first best
/// element of its slice wins), then the lanes exchange (value, index) pairs
/// by a butterfly that keeps the better value and, on a tie, the smaller
/// index: the first best element of the row, as the serial loop finds it.
static LogicalResult distributeWarpArgReduction(gpu::LaunchOp launch,
                                                linalg::LinalgOp op,
                                                ArgReduction match,
                                                int64_t lanes) {
  FailureOr<unsigned> reductionLoopOr = getWarpReductionLoop(op);
  if (failed(reductionLoopOr))
    return failure();
  unsigned reductionLoop = *reductionLoopOr;
  if (!isIndexedByProjections(op))
    return op->emitOpError() << "cannot be reduced by the lanes of a warp: "
                                "an operand is not indexed by a projected "
                                "permutation of the loops";
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<Sharing> sharingOr = buildSharing(b, loc, launch, op, lanes);
  if (failed(sharingOr))
    return failure();
  const Sharing &sharing = *sharingOr;
  Value zero = sharing.zero;
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  Value extent =
      getValueOrCreateConstantIndexOp(b, loc, ranges[reductionLoop].size);
  OpOperand *valueOut = op.getDpsInitOperand(0);
  OpOperand *indexOut = op.getDpsInitOperand(1);
  SmallVector<Value> outIndices = getIndices(op, *valueOut, zero, zero);
  Value startValue =
      memref::LoadOp::create(b, loc, valueOut->get(), outIndices);
  Value startIndex = memref::LoadOp::create(
      b, loc, indexOut->get(), getIndices(op, *indexOut, zero, zero));
  Block *body = op.getBlock();
  SmallVector<BlockArgument> outs(op.getRegionOutputArgs());
  OpOperand *input = op.getDpsInputOperand(0);
  SmallVector<Value> scanned = buildStridedLoop(
      b, loc, sharing, extent, ValueRange{startValue, startIndex},
      [&](OpBuilder &nb, Location nloc, Value k, ValueRange acc) {
        IRMapping mapping;
        mapping.map(op.getMatchingBlockArgument(input),
                    memref::LoadOp::create(nb, nloc, input->get(),
                                           getIndices(op, *input, k, zero)));
        mapping.map(outs[0], acc[0]);
        mapping.map(outs[1], acc[1]);
        cloneBody(nb, op, mapping, [&](unsigned dim) {
          return dim == reductionLoop ? k : zero;
        });
        Operation *yield = body->getTerminator();
        scf::YieldOp::create(
            nb, nloc,
            ValueRange{mapping.lookupOrDefault(yield->getOperand(0)),
                       mapping.lookupOrDefault(yield->getOperand(1))});
      });
  // The other pair wins when its value is better, or as good at a smaller
  // index.
  auto pick = [&](OpBuilder &nb, ValueRange mine,
                  ValueRange other) -> SmallVector<Value> {
    Value best = mine[0], at = mine[1], otherBest = other[0],
          otherAt = other[1];
    Value better, equal;
    if (match.cmpf) {
      better = arith::CmpFOp::create(nb, loc, match.cmpf.getPredicate(),
                                     otherBest, best);
      equal = arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OEQ,
                                    otherBest, best);
    } else {
      better = arith::CmpIOp::create(nb, loc, match.cmpi.getPredicate(),
                                     otherBest, best);
      equal = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                    otherBest, best);
    }
    Value earlier = arith::CmpIOp::create(nb, loc,
                                          at.getType().isIndex()
                                              ? arith::CmpIPredicate::ult
                                              : arith::CmpIPredicate::slt,
                                          otherAt, at);
    Value wins = arith::OrIOp::create(
        nb, loc, better, arith::AndIOp::create(nb, loc, equal, earlier));
    return {arith::SelectOp::create(nb, loc, wins, otherBest, best),
            arith::SelectOp::create(nb, loc, wins, otherAt, at)};
  };
  SmallVector<Value> pair = scanned;
  for (int64_t offset = 1; offset < qimeng::kWarpSize; offset *= 2)
    pair = pick(b, pair,
                {shuffleXor(b, loc, pair[0], offset),
                 shuffleXor(b, loc, pair[1], offset)});
  if (sharing.isBlock())
    pair = combineWarps(b, loc, launch, sharing, pair, pick);
  scf::IfOp::create(b, loc, isFirstThread(b, loc, sharing),
                    [&](OpBuilder &nb, Location nloc) {
                      memref::StoreOp::create(nb, nloc, pair[0],
                                              valueOut->get(), outIndices);
                      memref::StoreOp::create(
                          nb, nloc, pair[1], indexOut->get(),
                          getIndices(op, *indexOut, zero, zero));
                      scf::YieldOp::create(nb, nloc);
                    });
  if (sharing.isBlock())
    gpu::BarrierOp::create(b, loc);
  op->erase();
  return success();
}

LogicalResult mlir::qimeng::distributeOverLanes(gpu::LaunchOp launch,
                                                StringRef tag, int64_t lanes) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(launch, tag));
  if (op && op.getNumReductionLoops() == 0)
    return distributeWarpElementwise(launch, tag, lanes);
  if (op && op.hasPureBufferSemantics())
    if (std::optional<ArgReduction> match = matchArgReduction(op))
      return distributeWarpArgReduction(launch, op, *match, lanes);
  return distributeWarpReduction(launch, tag, lanes);
}
