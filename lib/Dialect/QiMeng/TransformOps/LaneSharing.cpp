//===- LaneSharing.cpp - Ops shared by the lanes of a warp or block -------===//

#include "LaneSharing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::qimeng::lanes {

bool isIndexedByProjections(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands())
    if (isa<ShapedType>(operand.get().getType()) &&
        !op.getMatchingIndexingMap(&operand).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return false;
  return true;
}

/// Iterations of a lane-strided loop each trip takes: independent loads in
/// flight per thread, which a memory-bound row needs to reach the bandwidth.
static constexpr int64_t kLaneLoopUnroll = 4;
/// Iterations per thread up to which a static loop runs as one trip (all its
/// loads in flight at once).
static constexpr int64_t kMaxLaneIterationsInOneTrip = 16;

FailureOr<Sharing> buildSharing(OpBuilder &b, Location loc,
                                gpu::LaunchOp launch, linalg::LinalgOp op,
                                int64_t lanes) {
  if (lanes < qimeng::kWarpSize || lanes > 1024 ||
      lanes % qimeng::kWarpSize != 0)
    return op->emitOpError() << "cannot be shared by " << lanes
                             << " lanes: a multiple of 32 up to 1024 can";
  if (lanes > qimeng::kWarpSize) {
    auto constantOf = [](Value v) { return getConstantIntValue(v); };
    if (constantOf(launch.getBlockSizeX()) != lanes ||
        constantOf(launch.getBlockSizeY()) != 1 ||
        constantOf(launch.getBlockSizeZ()) != 1)
      return op->emitOpError() << "cannot be shared by " << lanes
                               << " lanes: its launch does not have " << lanes
                               << " threads along x (and one along y and z)";
  }
  Sharing sharing;
  sharing.lanes = lanes;
  sharing.zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (sharing.isBlock())
    sharing.id = gpu::ThreadIdOp::create(
        b, loc, b.getIndexType(),
        gpu::DimensionAttr::get(b.getContext(), gpu::Dimension::x),
        b.getIndexAttr(lanes));
  else
    sharing.id = gpu::LaneIdOp::create(b, loc, b.getIndexType(),
                                       b.getIndexAttr(qimeng::kWarpSize));
  return sharing;
}

Value isFirstThread(OpBuilder &b, Location loc, const Sharing &s) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s.id, s.zero);
}

/// `iterations` of `step` from `start` (a trip of a lane-strided loop): the
/// first `unmasked` as they are, the others each masked by whether it is
/// before `extent` (loads then read the loop's last iteration, results are
/// discarded).
static SmallVector<Value> buildTrip(OpBuilder &b, Location loc,
                                    const Sharing &s, Value start, Value extent,
                                    int64_t iterations, int64_t unmasked,
                                    ValueRange inits, LaneIteration step) {
  SmallVector<Value> acc(inits);
  Value last;
  if (unmasked < iterations)
    last = arith::SubIOp::create(b, loc, extent,
                                 arith::ConstantIndexOp::create(b, loc, 1));
  for (int64_t u = 0; u < iterations; ++u) {
    Value index = start;
    if (u > 0)
      index = arith::AddIOp::create(
          b, loc, start, arith::ConstantIndexOp::create(b, loc, u * s.lanes));
    if (u < unmasked) {
      acc = step(b, loc, index, Value(), acc);
      continue;
    }
    Value valid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, extent);
    Value clamped = arith::SelectOp::create(b, loc, valid, index, last);
    SmallVector<Value> next = step(b, loc, clamped, valid, acc);
    for (auto [value, nextValue] : llvm::zip(acc, next))
      value = arith::SelectOp::create(b, loc, valid, nextValue, value);
  }
  return acc;
}

SmallVector<Value> buildStridedLoop(OpBuilder &b, Location loc,
                                    const Sharing &s, Value extent,
                                    ValueRange inits, LaneIteration step) {
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  // A static loop of few iterations per thread: one masked trip.
  if (staticExtent) {
    int64_t perThread = llvm::divideCeil(*staticExtent, s.lanes);
    if (perThread <= kMaxLaneIterationsInOneTrip) {
      if (perThread == 0)
        return SmallVector<Value>(inits);
      // Iteration u of every thread is in the loop while (u + 1) * lanes
      // is: only the last may need a mask.
      return buildTrip(b, loc, s, s.id, extent, perThread,
                       *staticExtent / s.lanes, inits, step);
    }
  }
  // Whole trips of kLaneLoopUnroll iterations, then one masked trip for
  // what is left (fewer than kLaneLoopUnroll iterations per thread), its
  // loads in flight together rather than one at a time.
  int64_t span = (kLaneLoopUnroll - 1) * s.lanes;
  Value spanValue = arith::ConstantIndexOp::create(b, loc, span);
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, extent,
                                     spanValue);
  Value upper = arith::SelectOp::create(
      b, loc, fits, arith::SubIOp::create(b, loc, extent, spanValue), s.zero);
  Value stride =
      arith::ConstantIndexOp::create(b, loc, kLaneLoopUnroll * s.lanes);
  SmallVector<Value> loopInits(inits);
  loopInits.push_back(s.id);
  auto loop = scf::ForOp::create(
      b, loc, s.id, upper, stride, loopInits,
      [&](OpBuilder &nb, Location nloc, Value i, ValueRange acc) {
        SmallVector<Value> next =
            buildTrip(nb, nloc, s, i, extent, kLaneLoopUnroll,
                      /*unmasked=*/kLaneLoopUnroll, acc.drop_back(), step);
        next.push_back(arith::AddIOp::create(nb, nloc, i, stride));
        scf::YieldOp::create(nb, nloc, next);
      });
  SmallVector<Value> results(loop.getResults());
  Value rest = results.pop_back_val();
  // Whole trips cover a static loop that their stride divides.
  if (staticExtent && *staticExtent % (kLaneLoopUnroll * s.lanes) == 0)
    return results;
  // The masked trip, skipped by threads with nothing left (an empty loop
  // has no last iteration to read).
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rest, extent);
  auto tail = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc,
                             buildTrip(nb, nloc, s, rest, extent,
                                       kLaneLoopUnroll - 1, /*unmasked=*/0,
                                       results, step));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, results);
      });
  return SmallVector<Value>(tail.getResults());
}

SmallVector<Value> combineWarps(
    OpBuilder &b, Location loc, gpu::LaunchOp launch, const Sharing &s,
    ValueRange totals,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange, ValueRange)>
        combine) {
  int64_t warps = s.lanes / qimeng::kWarpSize;
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
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

FailureOr<unsigned> getWarpReductionLoop(linalg::LinalgOp op) {
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

void cloneBody(OpBuilder &b, linalg::LinalgOp op, IRMapping &mapping,
               function_ref<Value(unsigned)> indexOf) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), indexOf(index.getDim()));
      continue;
    }
    b.clone(inner, mapping);
  }
}

Value shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset) {
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

SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                              unsigned loop, Value index, Value zero) {
  SmallVector<Value> indices;
  for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    indices.push_back(dim && dim.getPosition() == loop ? index : zero);
  }
  return indices;
}

/// The bytes of `type`'s elements, or 0 when they are not integers or
/// floats of 1, 2, 4 or 8 bytes.
static int64_t getElementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrFloat())
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits % 8 != 0 || !llvm::isPowerOf2_32(bits / 8) || bits > 64)
    return 0;
  return bits / 8;
}

/// Whether `memref` is contiguous in its innermost dimension and each of
/// its rows starts on a multiple of `width` elements from its buffer's
/// start: static strides and offset that say so, or a subview with unit
/// strides that starts its innermost dimension on such a multiple, of a
/// memref that has them (tiling's views, whose strides are dynamic until
/// they are folded).
static bool hasAlignedRows(Value memref, int64_t width) {
  while (true) {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty())
      return false;
    bool outerAligned = llvm::all_of(
        ArrayRef<int64_t>(strides).drop_back(), [&](int64_t stride) {
          return !ShapedType::isDynamic(stride) && stride % width == 0;
        });
    if (strides.back() == 1 && outerAligned && !ShapedType::isDynamic(offset))
      return offset % width == 0;
    auto subview = memref.getDefiningOp<memref::SubViewOp>();
    if (!subview || subview.getSourceType().getRank() != type.getRank() ||
        !llvm::all_of(subview.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }))
      return false;
    int64_t innerOffset = subview.getStaticOffsets().back();
    if (ShapedType::isDynamic(innerOffset) || innerOffset % width != 0)
      return false;
    memref = subview.getSource();
  }
}

int64_t getLaneVectorWidth(linalg::LinalgOp op, unsigned loop) {
  constexpr int64_t kVectorBytes = 16;
  int64_t extent = op.getStaticLoopRanges()[loop];
  if (ShapedType::isDynamic(extent))
    return 1;
  int64_t widest = 0;
  SmallVector<Value> rows;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !map.isFunctionOfDim(loop))
      continue;
    int64_t bytes = getElementBytes(type);
    // The loop's index must be the innermost dimension's alone.
    if (bytes == 0 || map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(loop, op->getContext()) ||
        llvm::count_if(map.getResults(), [&](AffineExpr e) {
          return e.isFunctionOfDim(loop);
        }) != 1)
      return 1;
    widest = std::max(widest, bytes);
    rows.push_back(operand.get());
  }
  if (widest == 0)
    return 1;
  int64_t width = kVectorBytes / widest;
  if (width < 2 || extent % width != 0 ||
      !llvm::all_of(rows, [&](Value v) { return hasAlignedRows(v, width); }))
    return 1;
  return width;
}

Value getGroupStart(OpBuilder &b, Location loc, Value group, int64_t width) {
  if (width == 1)
    return group;
  return arith::MulIOp::create(b, loc, group,
                               arith::ConstantIndexOp::create(b, loc, width));
}

Value getElementAt(OpBuilder &b, Location loc, Value first, int64_t j) {
  if (j == 0)
    return first;
  return arith::AddIOp::create(b, loc, first,
                               arith::ConstantIndexOp::create(b, loc, j));
}

SmallVector<SmallVector<Value>>
loadLaneOperands(OpBuilder &b, Location loc, linalg::LinalgOp op, unsigned loop,
                 Value first, int64_t width, Value zero, bool readInits) {
  unsigned numArgs = op.getBlock()->getNumArguments();
  SmallVector<SmallVector<Value>> values(width,
                                         SmallVector<Value>(numArgs, Value()));
  for (OpOperand &operand : op->getOpOperands()) {
    if (op.isDpsInit(&operand) &&
        (!readInits || !op.payloadUsesValueFromOperand(&operand)))
      continue;
    unsigned arg = op.getMatchingBlockArgument(&operand).getArgNumber();
    Value source = operand.get();
    auto type = dyn_cast<MemRefType>(source.getType());
    if (!type) {
      for (int64_t j = 0; j < width; ++j)
        values[j][arg] = source;
      continue;
    }
    if (!op.getMatchingIndexingMap(&operand).isFunctionOfDim(loop)) {
      Value scalar = memref::LoadOp::create(
          b, loc, source, getIndices(op, operand, loop, zero, zero));
      for (int64_t j = 0; j < width; ++j)
        values[j][arg] = scalar;
      continue;
    }
    if (width == 1) {
      values[0][arg] = memref::LoadOp::create(
          b, loc, source, getIndices(op, operand, loop, first, zero));
      continue;
    }
    auto vectorType = VectorType::get({width}, type.getElementType());
    auto load = vector::LoadOp::create(
        b, loc, vectorType, source, getIndices(op, operand, loop, first, zero));
    load.setAlignment(width * getElementBytes(type));
    for (int64_t j = 0; j < width; ++j)
      values[j][arg] = vector::ExtractOp::create(b, loc, load, j);
  }
  return values;
}

SmallVector<Value> cloneBodyAt(OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> arguments, unsigned loop,
                               Value index, Value zero,
                               ArrayRef<Value> outputs) {
  IRMapping mapping;
  Block *body = op.getBlock();
  for (auto [arg, value] : llvm::zip(body->getArguments(), arguments))
    if (value)
      mapping.map(arg, value);
  // Carried values stand for the outputs (a reduction's accumulators).
  for (auto [arg, value] : llvm::zip(op.getRegionOutputArgs(), outputs))
    mapping.map(arg, value);
  cloneBody(b, op, mapping,
            [&](unsigned dim) { return dim == loop ? index : zero; });
  SmallVector<Value> yielded;
  for (Value value : body->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

void storeLaneResults(OpBuilder &b, Location loc, linalg::LinalgOp op,
                      unsigned loop, Value first, int64_t width, Value zero,
                      ArrayRef<SmallVector<Value>> results) {
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    SmallVector<Value> indices = getIndices(op, init, loop, first, zero);
    if (width == 1) {
      memref::StoreOp::create(b, loc, results[0][i], init.get(), indices);
      continue;
    }
    SmallVector<Value> elements;
    for (int64_t j = 0; j < width; ++j)
      elements.push_back(results[j][i]);
    auto type = cast<MemRefType>(init.get().getType());
    Value vector = vector::FromElementsOp::create(
        b, loc, VectorType::get({width}, type.getElementType()), elements);
    auto store = vector::StoreOp::create(b, loc, vector, init.get(), indices);
    store.setAlignment(width * getElementBytes(type));
  }
}

FailureOr<LaneReduction> buildLaneReduction(OpBuilder &b, gpu::LaunchOp launch,
                                            linalg::LinalgOp op,
                                            int64_t lanes) {
  if (!isIndexedByProjections(op))
    return op->emitOpError() << "cannot be reduced by the lanes of a warp: "
                                "an operand is not indexed by a projected "
                                "permutation of the loops";
  FailureOr<unsigned> loop = getWarpReductionLoop(op);
  if (failed(loop))
    return failure();
  Location loc = op.getLoc();
  FailureOr<Sharing> sharing = buildSharing(b, loc, launch, op, lanes);
  if (failed(sharing))
    return failure();
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  Value extent = getValueOrCreateConstantIndexOp(b, loc, ranges[*loop].size);
  return LaneReduction{*loop, *sharing, extent};
}

SmallVector<Value> foldLaneSlice(OpBuilder &b, Location loc,
                                 linalg::LinalgOp op,
                                 const LaneReduction &reduction,
                                 ValueRange inits) {
  unsigned loop = reduction.loop;
  Value zero = reduction.sharing.zero;
  int64_t width = getLaneVectorWidth(op, loop);
  Value groups = reduction.extent;
  if (width > 1)
    groups = arith::ConstantIndexOp::create(
        b, loc, op.getStaticLoopRanges()[loop] / width);
  return buildStridedLoop(
      b, loc, reduction.sharing, groups, inits,
      [&](OpBuilder &nb, Location nloc, Value group, Value,
          ValueRange acc) -> SmallVector<Value> {
        Value first = getGroupStart(nb, nloc, group, width);
        SmallVector<SmallVector<Value>> args = loadLaneOperands(
            nb, nloc, op, loop, first, width, zero, /*readInits=*/false);
        SmallVector<Value> state(acc);
        for (int64_t j = 0; j < width; ++j)
          state = cloneBodyAt(nb, op, args[j], loop,
                              getElementAt(nb, nloc, first, j), zero, state);
        return state;
      });
}

} // namespace mlir::qimeng::lanes
