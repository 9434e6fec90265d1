//===- WarpReductions.cpp - Reductions shared by the lanes of a warp ------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/OnlineSums.h"

#include "LaneSharing.h"

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
using namespace mlir::qimeng::lanes;

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
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<LaneReduction> reduction = buildLaneReduction(b, launch, op, lanes);
  if (failed(reduction))
    return failure();
  const Sharing &sharing = reduction->sharing;
  Value zero = sharing.zero;
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
  // (in groups of contiguous elements: one vector load per operand) with
  // the op's own body, starting from the neutral element.
  SmallVector<Value> folded =
      foldLaneSlice(b, loc, op, *reduction, ValueRange{init});
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
  SmallVector<Value> outIndices =
      getIndices(op, *init0, reduction->loop, zero, zero);
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
  // `width` iterations of the op from `first` along the strided loop (none:
  // the one element): loads (vectors when `width` > 1), the body, stores,
  // guarded by `valid` when it is not null.
  unsigned loop = strided ? *strided : op.getNumLoops();
  int64_t width = strided ? getLaneVectorWidth(op, loop) : 1;
  auto emitIterations = [&](OpBuilder &nb, Location nloc, Value first,
                            Value valid) {
    SmallVector<SmallVector<Value>> args = loadLaneOperands(
        nb, nloc, op, loop, first, width, zero, /*readInits=*/true);
    SmallVector<SmallVector<Value>> results;
    for (int64_t j = 0; j < width; ++j)
      results.push_back(cloneBodyAt(nb, op, args[j], loop,
                                    getElementAt(nb, nloc, first, j), zero));
    if (!valid) {
      storeLaneResults(nb, nloc, op, loop, first, width, zero, results);
      return;
    }
    scf::IfOp::create(nb, nloc, valid, [&](OpBuilder &sb, Location sloc) {
      storeLaneResults(sb, sloc, op, loop, first, width, zero, results);
      scf::YieldOp::create(sb, sloc);
    });
  };
  if (strided) {
    Value groups;
    if (width > 1) {
      groups = arith::ConstantIndexOp::create(
          b, loc, op.getStaticLoopRanges()[loop] / width);
    } else {
      SmallVector<Range> ranges = op.createLoopRanges(b, loc);
      groups = getValueOrCreateConstantIndexOp(b, loc, ranges[loop].size);
    }
    buildStridedLoop(b, loc, sharing, groups, ValueRange{},
                     [&](OpBuilder &nb, Location nloc, Value group, Value valid,
                         ValueRange) -> SmallVector<Value> {
                       emitIterations(nb, nloc,
                                      getGroupStart(nb, nloc, group, width),
                                      valid);
                       return {};
                     });
  } else {
    scf::IfOp::create(b, loc, isFirstThread(b, loc, sharing),
                      [&](OpBuilder &nb, Location nloc) {
                        emitIterations(nb, nloc, zero, Value());
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

bool mlir::qimeng::isLaneReducible(linalg::LinalgOp op) {
  return getWarpReductionKind(op).has_value() || isWarpArgReduction(op) ||
         matchOnlineSum(op).has_value();
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
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<LaneReduction> reduction = buildLaneReduction(b, launch, op, lanes);
  if (failed(reduction))
    return failure();
  const Sharing &sharing = reduction->sharing;
  Value zero = sharing.zero;
  OpOperand *valueOut = op.getDpsInitOperand(0);
  OpOperand *indexOut = op.getDpsInitOperand(1);
  SmallVector<Value> outIndices =
      getIndices(op, *valueOut, reduction->loop, zero, zero);
  SmallVector<Value> indexIndices =
      getIndices(op, *indexOut, reduction->loop, zero, zero);
  Value startValue =
      memref::LoadOp::create(b, loc, valueOut->get(), outIndices);
  Value startIndex =
      memref::LoadOp::create(b, loc, indexOut->get(), indexIndices);
  // Each lane scans its slice in increasing index order, so the first best
  // element of the slice wins.
  SmallVector<Value> scanned =
      foldLaneSlice(b, loc, op, *reduction, ValueRange{startValue, startIndex});
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
                      memref::StoreOp::create(nb, nloc, pair[1],
                                              indexOut->get(), indexIndices);
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
  if (op && matchOnlineSum(op))
    return distributeOnlineSum(launch, op, lanes);
  return distributeWarpReduction(launch, tag, lanes);
}
