//===- LaneSharing.cpp - Ops shared by the lanes of a warp or block -------===//

#include "LaneSharing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

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
static constexpr uint64_t kLaneLoopUnroll = 4;

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
  sharing.count = arith::ConstantIndexOp::create(b, loc, lanes);
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

/// The loop `for i = id to extent step count`, unrolled so that each trip
/// issues several iterations' loads at once (the iterations left over run
/// in a second loop after it). Returns the values the two loops carry out.
SmallVector<Value> buildStridedLoop(
    OpBuilder &b, Location loc, const Sharing &s, Value extent,
    ValueRange inits,
    function_ref<void(OpBuilder &, Location, Value, ValueRange)> body) {
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

SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
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

} // namespace mlir::qimeng::lanes
