//===- SharedBuffers.cpp - Shared-memory buffers for multi-buffering ------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/SharedBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

static bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The workgroup-memory buffer `op` reads or writes through a vector
/// transfer, or null.
static Value getSharedBuffer(Operation *op, bool &isWrite) {
  Value base;
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    base = read.getBase();
    isWrite = false;
  } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    base = write.getBase();
    isWrite = true;
  }
  auto type = base ? dyn_cast<MemRefType>(base.getType()) : MemRefType();
  return type && isWorkgroup(type) ? base : Value();
}

/// Splits each 2-D copy from global to shared memory in the loop body into
/// one copy per row: asynchronous copies move contiguous vectors.
static void splitCopyRows(scf::ForOp loop, RewriterBase &rewriter) {
  for (auto write :
       llvm::to_vector(loop.getBody()->getOps<vector::TransferWriteOp>())) {
    auto read = write.getVector().getDefiningOp<vector::TransferReadOp>();
    VectorType type = write.getVectorType();
    auto sharedType = dyn_cast<MemRefType>(write.getBase().getType());
    if (!read || !read->hasOneUse() || type.getRank() != 2 ||
        type.getDimSize(0) == 1 || !sharedType || !isWorkgroup(sharedType) ||
        read.getMask() || write.getMask() ||
        !read.getPermutationMap().isMinorIdentity() ||
        !write.getPermutationMap().isMinorIdentity() ||
        read.hasOutOfBoundsDim() || write.hasOutOfBoundsDim())
      continue;
    auto rowType = VectorType::get({type.getDimSize(1)}, type.getElementType());
    Location loc = write.getLoc();
    rewriter.setInsertionPoint(write);
    auto offsetRow = [&](ValueRange indices, int64_t row) {
      SmallVector<Value> shifted(indices);
      Value &index = shifted[shifted.size() - 2];
      index = arith::AddIOp::create(
          rewriter, loc, index,
          arith::ConstantIndexOp::create(rewriter, loc, row));
      return shifted;
    };
    for (int64_t row = 0; row < type.getDimSize(0); ++row) {
      auto rowRead = vector::TransferReadOp::create(
          rewriter, loc, rowType, read.getBase(),
          offsetRow(read.getIndices(), row), read.getPadding(),
          ArrayRef<bool>{true});
      vector::TransferWriteOp::create(rewriter, loc, rowRead, write.getBase(),
                                      offsetRow(write.getIndices(), row),
                                      ArrayRef<bool>{true});
    }
    rewriter.eraseOp(write);
    rewriter.eraseOp(read);
  }
}

/// Drops the barriers of the loop body that separate two phases which only
/// write shared memory, each to other buffers: the GPU mapping puts one after
/// each distributed copy, but consecutive copies into different tiles need
/// none, and one between them would split their cp.async groups.
static void removeBarriersBetweenCopies(scf::ForOp loop) {
  Block *body = loop.getBody();
  // Phases of the body between barriers: whether one reads shared memory or
  // does anything opaque, and the buffers it writes.
  struct Phase {
    bool readsOrOpaque = false;
    llvm::SmallPtrSet<Value, 4> written;
  };
  SmallVector<Phase> phases(1);
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body->without_terminator()) {
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
      barriers.push_back(barrier);
      phases.emplace_back();
      continue;
    }
    bool isWrite = false;
    if (Value buffer = getSharedBuffer(&op, isWrite)) {
      if (isWrite)
        phases.back().written.insert(buffer);
      else
        phases.back().readsOrOpaque = true;
      continue;
    }
    // Anything else that touches memory other than a global read keeps the
    // barriers around it.
    if (isa<vector::TransferReadOp>(op))
      continue;
    if (op.getNumRegions() > 0 || !isMemoryEffectFree(&op))
      phases.back().readsOrOpaque = true;
  }
  for (auto [i, barrier] : llvm::enumerate(barriers)) {
    Phase &before = phases[i], &after = phases[i + 1];
    if (before.readsOrOpaque || after.readsOrOpaque ||
        llvm::any_of(after.written,
                     [&](Value v) { return before.written.contains(v); }))
      continue;
    // Merge: the next barrier now closes both phases.
    after.written.insert(before.written.begin(), before.written.end());
    barrier.erase();
  }
}

LogicalResult mlir::qimeng::hoistStageBuffers(scf::ForOp loop, StringRef name) {
  auto launch = loop->getParentOfType<gpu::LaunchOp>();
  if (!launch)
    return loop.emitOpError() << "is not inside a gpu.launch; cannot "
                                 "multi-buffer its shared-memory tiles";
  // Promotion makes `alloca : memref<Nxi8, 3>` viewed as the typed tile.
  SmallVector<std::pair<memref::AllocaOp, memref::ViewOp>> buffers;
  for (auto alloca : loop.getBody()->getOps<memref::AllocaOp>()) {
    if (!isWorkgroup(alloca.getType()) || !alloca->hasOneUse())
      continue;
    auto view = dyn_cast<memref::ViewOp>(*alloca->getUsers().begin());
    if (!view || !view.getType().hasStaticShape() ||
        !view.getType().getLayout().isIdentity())
      continue;
    buffers.emplace_back(alloca, view);
  }
  if (buffers.empty())
    return loop.emitOpError()
           << "holds no shared-memory tile to multi-buffer; pipelining "
              "needs the target's operands promoted";
  IRRewriter rewriter(loop.getContext());
  Block &body = launch.getBody().front();
  for (auto [alloca, view] : buffers) {
    rewriter.setInsertionPointToStart(&body);
    auto alloc = memref::AllocOp::create(
        rewriter, alloca.getLoc(), view.getType(), alloca.getAlignmentAttr());
    alloc->setAttr(kStageBufferAttr, rewriter.getStringAttr(name));
    rewriter.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(rewriter, alloca.getLoc(), alloc);
    rewriter.replaceOp(view, alloc.getResult());
    rewriter.eraseOp(alloca);
  }
  splitCopyRows(loop, rewriter);
  removeBarriersBetweenCopies(loop);
  return success();
}

/// Replaces the uses of the memref `from` by `to`, a memref of the same
/// shape but another layout: subviews of it are rebuilt on `to` (their
/// result types follow) and their uses replaced in turn; the ops that take a
/// memref of any layout take `to` in place. Fails on any other user.
static LogicalResult replaceWithRelaidOut(RewriterBase &rewriter, Value from,
                                          Value to) {
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    Operation *user = use.getOwner();
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      rewriter.setInsertionPoint(subview);
      auto type = memref::SubViewOp::inferRankReducedResultType(
          subview.getType().getShape(), cast<MemRefType>(to.getType()),
          subview.getMixedOffsets(), subview.getMixedSizes(),
          subview.getMixedStrides());
      auto rebuilt = memref::SubViewOp::create(
          rewriter, subview.getLoc(), cast<MemRefType>(type), to,
          subview.getMixedOffsets(), subview.getMixedSizes(),
          subview.getMixedStrides());
      if (failed(replaceWithRelaidOut(rewriter, subview.getResult(),
                                      rebuilt.getResult())))
        return failure();
      rewriter.eraseOp(subview);
      continue;
    }
    if (!isa<linalg::LinalgOp, memref::CopyOp, memref::LoadOp, memref::StoreOp,
             vector::TransferReadOp, vector::TransferWriteOp>(user))
      return user->emitOpError()
             << "uses a shared-memory tile that is being padded; only "
                "subviews, linalg ops, copies, loads and stores can take "
                "its new layout";
    rewriter.modifyOpInPlace(user, [&] { use.set(to); });
  }
  return success();
}

LogicalResult mlir::qimeng::padSharedTiles(linalg::LinalgOp op, int64_t pad) {
  if (pad <= 0)
    return op.emitOpError() << "pads shared-memory rows by " << pad
                            << " elements; the padding must be positive";
  // The distinct tiles `op` reaches through subviews.
  llvm::SetVector<memref::ViewOp> views;
  for (Value operand : op->getOperands()) {
    while (auto subview = operand.getDefiningOp<memref::SubViewOp>())
      operand = subview.getSource();
    auto view = operand.getDefiningOp<memref::ViewOp>();
    auto alloca = view ? view.getSource().getDefiningOp<memref::AllocaOp>()
                       : memref::AllocaOp();
    if (alloca && isWorkgroup(alloca.getType()))
      views.insert(view);
  }
  if (views.empty())
    return op.emitOpError() << "reads no shared-memory tile made by "
                               "promotion (an alloca viewed as a tile); "
                               "promote its operands first";
  IRRewriter rewriter(op.getContext());
  for (memref::ViewOp view : views) {
    MemRefType type = view.getType();
    auto alloca = view.getSource().getDefiningOp<memref::AllocaOp>();
    // Promotion views the bytes with constant sizes the type may not show.
    std::optional<SmallVector<int64_t>> shape = SmallVector<int64_t>();
    auto dynamicSizes = view.getSizes().begin();
    for (int64_t size : type.getShape()) {
      std::optional<int64_t> known = ShapedType::isDynamic(size)
                                         ? getConstantIntValue(*dynamicSizes++)
                                         : std::optional<int64_t>(size);
      if (!known) {
        shape = std::nullopt;
        break;
      }
      shape->push_back(*known);
    }
    if (!shape || !type.getLayout().isIdentity() || type.getRank() == 0 ||
        !alloca.getType().hasStaticShape() ||
        !type.getElementType().isIntOrFloat())
      return op.emitOpError()
             << "reads the shared-memory tile " << type
             << ", which is not a static tile of scalars with rows to pad";
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    if (bytes == 0 || (pad * bytes) % 16 != 0) {
      std::string tile;
      llvm::raw_string_ostream os(tile);
      for (int64_t size : *shape)
        os << size << "x";
      type.getElementType().print(os);
      return op.emitOpError()
             << "pads the rows of a shared " << tile << " tile by " << pad
             << " elements, which is not a multiple of 16 bytes: rows would "
                "not stay aligned for 128-bit copies";
    }
    SmallVector<int64_t> padded(*shape);
    padded.back() += pad;
    auto paddedType =
        MemRefType::get(padded, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    // The bytes grow by the padding (the view may start past byte 0).
    int64_t grown = alloca.getType().getNumElements() *
                        alloca.getType().getElementTypeBitWidth() / 8 +
                    (ShapedType::getNumElements(padded) -
                     ShapedType::getNumElements(*shape)) *
                        bytes;
    rewriter.setInsertionPoint(alloca);
    auto buffer = memref::AllocaOp::create(
        rewriter, alloca.getLoc(),
        MemRefType::get({grown}, rewriter.getI8Type(), AffineMap(),
                        alloca.getType().getMemorySpace()),
        alloca.getAlignmentAttr());
    rewriter.setInsertionPoint(view);
    auto paddedView =
        memref::ViewOp::create(rewriter, view.getLoc(), paddedType, buffer,
                               view.getByteShift(), ValueRange{});
    SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0)),
        ones(type.getRank(), rewriter.getIndexAttr(1)), sizes;
    for (int64_t size : *shape)
      sizes.push_back(rewriter.getIndexAttr(size));
    auto tile = memref::SubViewOp::create(rewriter, view.getLoc(), paddedView,
                                          zeros, sizes, ones);
    if (failed(replaceWithRelaidOut(rewriter, view.getResult(), tile)))
      return failure();
    rewriter.eraseOp(view);
    if (alloca->use_empty())
      rewriter.eraseOp(alloca);
  }
  return success();
}
