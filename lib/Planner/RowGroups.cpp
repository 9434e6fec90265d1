//===- RowGroups.cpp - Row-wise kernels from several ops ------------------===//

#include "QiMeng/Planner/RowGroups.h"
#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// How an op takes part in a row group.
struct RowShape {
  SmallVector<int64_t> rows;
  /// The row length, when the op has a loop along the row (its last).
  std::optional<int64_t> rowLength;
  bool reduces = false;
};

/// Whether every operand of `op` is indexed by its loops in loop order (a
/// projected permutation without transposition), so each block takes the
/// same box of a buffer whichever op of the group touches it.
bool hasOrderedRows(linalg::LinalgOp op, unsigned /*rowLoops*/) {
  for (AffineMap map : op.getIndexingMapsArray()) {
    // Unit dimensions a keepdim reduction keeps are indexed by 0.
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    int64_t last = -1;
    for (AffineExpr e : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        continue;
      if (static_cast<int64_t>(dim.getPosition()) <= last)
        return false;
      last = dim.getPosition();
    }
  }
  return true;
}

/// The op's shape in a group: an op over the rows and along them (a
/// reduction the lanes of a warp share, or an elementwise op), or an
/// elementwise op over the rows alone; std::nullopt otherwise.
std::optional<RowShape>
getRowShape(linalg::LinalgOp op,
            llvm::function_ref<bool(linalg::LinalgOp)> isLaneReducible) {
  unsigned loops = op.getNumLoops();
  if (loops == 0 || op.getNumDpsInits() == 0)
    return std::nullopt;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  RowShape shape;
  if (op.getNumReductionLoops() == 1 &&
      iterators.back() == utils::IteratorType::reduction) {
    if (loops < 2 || !isLaneReducible(op))
      return std::nullopt;
    // The lanes stride along the row: every operand the row indexes must
    // hold it contiguous (a vector times a (k, n) matrix does not: a
    // column per output).
    if (!isContiguousAlongInnermostLoop(op))
      return std::nullopt;
    shape.reduces = true;
    shape.rows.assign(bounds.begin(), bounds.end() - 1);
    shape.rowLength = bounds.back();
  } else if (op.getNumReductionLoops() == 0) {
    // Over the rows alone (one value per row), or over rows and along
    // them: which one is known once the group's rows are.
    shape.rows.assign(bounds.begin(), bounds.end());
  } else {
    return std::nullopt;
  }
  return shape;
}

/// Whether `op` only gives another view of its operand (a slice or a
/// reshape), reading nothing itself.
bool isView(Operation *op) {
  return isa<ViewLikeOpInterface, tensor::ExtractSliceOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::CastOp>(op);
}

/// Whether an op outside the group, placed between `member` and the
/// group's last op, reads what `member` produces (its results, through
/// views of them, or a buffer it writes): fused into the last op's kernel,
/// `member` would run after that reader.
bool isReadBeforeLast(Operation *member, Operation *last,
                      const llvm::SmallPtrSetImpl<Operation *> &members) {
  if (member->getBlock() != last->getBlock())
    return true;
  llvm::SmallPtrSet<Value, 8> views(member->result_begin(),
                                    member->result_end());
  SmallVector<Value> written;
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(member))
    for (OpOperand &init : dps.getDpsInitsMutable())
      if (isa<MemRefType>(init.get().getType()))
        written.push_back(getViewRoot(init.get()));
  auto isOfMember = [&](Value v) {
    return views.contains(v) || (isa<MemRefType>(v.getType()) &&
                                 llvm::is_contained(written, getViewRoot(v)));
  };
  for (Operation *op = member->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    // A size query reads no data (an f16 softmax's reductions size their
    // outputs by tensor.dim of the f32 copy of its input).
    if (members.contains(op) || isa<tensor::DimOp, memref::DimOp>(op))
      continue;
    if (isView(op)) {
      if (llvm::any_of(op->getOperands(), isOfMember))
        views.insert(op->result_begin(), op->result_end());
      continue;
    }
    WalkResult reads = op->walk([&](Operation *nested) {
      return llvm::any_of(nested->getOperands(), isOfMember)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (reads.wasInterrupted())
      return true;
  }
  return false;
}

} // namespace

SmallVector<RowGroup> mlir::qimeng::findRowGroups(
    ArrayRef<linalg::LinalgOp> roots,
    llvm::function_ref<bool(linalg::LinalgOp)> isLaneReducible,
    const llvm::SmallPtrSetImpl<Operation *> &excluded) {
  // Candidates and their shapes.
  llvm::DenseMap<Operation *, RowShape> shapes;
  for (linalg::LinalgOp op : roots)
    if (!excluded.contains(op))
      if (std::optional<RowShape> shape = getRowShape(op, isLaneReducible))
        shapes[op] = *shape;
  // Groups grow from each reduction through data flow (SSA values on
  // tensors, shared buffers on memrefs) to ops with the same rows.
  llvm::DenseMap<Operation *, unsigned> groupOf;
  SmallVector<RowGroup> groups;
  for (linalg::LinalgOp seed : roots) {
    auto it = shapes.find(seed);
    if (it == shapes.end() || !it->second.reduces || groupOf.count(seed))
      continue;
    RowGroup group;
    group.rows = it->second.rows;
    group.rowLength = *it->second.rowLength;
    unsigned index = groups.size();
    // Whether `op` fits the group: its loops are the rows, or the rows and
    // the row length.
    auto fits = [&](Operation *op) {
      auto found = shapes.find(op);
      if (found == shapes.end() || groupOf.count(op))
        return false;
      const RowShape &s = found->second;
      auto linalgOp = cast<linalg::LinalgOp>(op);
      if (s.reduces)
        return s.rows == group.rows && s.rowLength == group.rowLength &&
               hasOrderedRows(linalgOp, group.rows.size());
      ArrayRef<int64_t> loops = s.rows;
      if (loops == ArrayRef<int64_t>(group.rows))
        return hasOrderedRows(linalgOp, group.rows.size());
      // Along the rows, or over them with a unit loop after (the fill of a
      // keepdim reduction's (rows, 1) result, as torch-mlir writes it).
      return loops.size() == group.rows.size() + 1 &&
             loops.drop_back() == ArrayRef<int64_t>(group.rows) &&
             (loops.back() == group.rowLength || loops.back() == 1) &&
             hasOrderedRows(linalgOp, group.rows.size());
    };
    SmallVector<Operation *> worklist = {seed};
    groupOf[seed] = index;
    llvm::SmallPtrSet<Operation *, 8> members = {seed};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      SmallVector<Operation *> neighbours;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          neighbours.push_back(def);
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          neighbours.push_back(user);
      for (Operation *next : neighbours)
        if (fits(next)) {
          groupOf[next] = index;
          members.insert(next);
          worklist.push_back(next);
        }
    }
    // The kernel runs in the last op's loops, the others fused into them
    // as its producers: an op the growth reached through a shared operand
    // (two reductions of one fill), or that feeds the last op only through
    // a reshape, is left to a kernel of its own.
    SmallVector<linalg::LinalgOp> ordered;
    for (linalg::LinalgOp op : roots)
      if (members.contains(op))
        ordered.push_back(op);
    // Kept: the last op and, last to first, each op that a kept one reads
    // directly (the micro-coder fuses along buffers, not through reshapes).
    llvm::SmallPtrSet<Operation *, 8> kept = {ordered.back()};
    for (linalg::LinalgOp op : llvm::reverse(ordered))
      if (llvm::any_of(kept, [&](Operation *k) { return feeds(op, k); }))
        kept.insert(op);
    llvm::SmallPtrSet<Operation *, 8> left;
    for (linalg::LinalgOp op : ordered)
      if (!kept.contains(op))
        left.insert(op);
    // A member the left-out op reads would be fused into the last op's
    // kernel, where the left-out op's kernel cannot see it: no group then.
    bool readByLeft = llvm::any_of(ordered, [&](linalg::LinalgOp op) {
      return !left.contains(op) && llvm::any_of(left, [&](Operation *l) {
        return feedsTransitively(op, l);
      });
    });
    if (readByLeft)
      continue;
    // A member read by an op outside the group before the last op runs too
    // late once fused into the last op's kernel: no group then (a left-out
    // op reading a member was refused above).
    if (llvm::any_of(ArrayRef<linalg::LinalgOp>(ordered).drop_back(),
                     [&](linalg::LinalgOp op) {
                       return !left.contains(op) &&
                              isReadBeforeLast(op, ordered.back(), members);
                     }))
      continue;
    for (linalg::LinalgOp op : ordered)
      if (!left.contains(op)) {
        group.ops.push_back(op);
        for (Value operand : op->getOperands()) {
          Type element = getElementTypeOrSelf(operand.getType());
          if (element.isIntOrFloat())
            group.elementBytes = std::max<int64_t>(
                group.elementBytes,
                llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
        }
      }
    if (llvm::any_of(group.ops, [&](linalg::LinalgOp op) {
          return shapes.find(op)->second.reduces;
        }))
      groups.push_back(std::move(group));
  }
  // Worth a kernel: two ops or more (short rows too: lanes idle past the
  // row's end cost less than a kernel per op).
  SmallVector<RowGroup> worth;
  for (RowGroup &group : groups)
    if (group.ops.size() >= 2 && !group.rows.empty())
      worth.push_back(std::move(group));
  return worth;
}

bool mlir::qimeng::takesThreadPerRow(int64_t rowLength, int64_t warpSize) {
  return !ShapedType::isDynamic(rowLength) && rowLength < warpSize;
}

int64_t mlir::qimeng::getRowLanes(const RowGroup &group,
                                  const TargetProfile &target) {
  constexpr int64_t kWarpsPerSM = 16;
  constexpr int64_t kMinPerThread = 8;
  constexpr int64_t kMinPerThreadOfManyRows = 16;
  constexpr int64_t kMaxLanesOfManyRows = 256;
  constexpr int64_t kMaxBlockRowBytes = 512 * 1024;
  int64_t warp = target.warpSize;
  int64_t busy = kWarpsPerSM * target.numSMs;
  bool staticRow = !ShapedType::isDynamic(group.rowLength);
  if (takesThreadPerRow(group.rowLength, warp))
    return 1;
  bool dynamicRows = llvm::any_of(group.rows, ShapedType::isDynamic);
  int64_t rows = 1;
  for (int64_t r : group.rows)
    if (!ShapedType::isDynamic(r))
      rows = std::min<int64_t>(rows * r, 1 << 30);
  // An unknown number of rows: few or many, a block of up to 256 threads
  // per row with 16 elements each or more keeps a long row from running on
  // one warp, and costs a short one nothing (a warp).
  if (dynamicRows) {
    if (!staticRow)
      return warp;
    int64_t lanes = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(
        std::max<int64_t>(1, group.rowLength / kMinPerThreadOfManyRows))));
    return std::clamp<int64_t>(
        lanes, warp, std::min(kMaxLanesOfManyRows, target.maxThreadsPerBlock));
  }
  if (rows >= busy)
    return warp;
  if (staticRow && group.rowLength * group.elementBytes > kMaxBlockRowBytes)
    return 0;
  int64_t lanes = static_cast<int64_t>(llvm::PowerOf2Ceil(
      static_cast<uint64_t>(llvm::divideCeil(busy * warp, rows))));
  lanes = std::clamp<int64_t>(lanes, warp, target.maxThreadsPerBlock);
  while (staticRow && lanes > warp && lanes * kMinPerThread > group.rowLength)
    lanes /= 2;
  return lanes;
}

bool mlir::qimeng::isWorthOneKernel(const RowGroup &group,
                                    const TargetProfile &target) {
  return getRowLanes(group, target) > 0;
}
