//===- RowGroups.h - Row-wise kernels from several ops ----------*- C++ -*-===//
//
// Softmax, log-softmax, layer and RMS norms reach the planner as several
// linalg ops over the same rows: fills and elementwise ops on per-row values,
// reductions along the row, elementwise ops over whole rows. A row group is
// such a set, connected by data flow; the planner gives each of its ops the
// same rows per block and a row per warp, and fuses them into one kernel
// (the barrier after each op's warps orders them).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_ROWGROUPS_H
#define QIMENG_PLANNER_ROWGROUPS_H

#include "QiMeng/Target/TargetProfile.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::qimeng {

/// The ops of one row-wise kernel, in program order.
struct RowGroup {
  SmallVector<linalg::LinalgOp> ops;
  /// The sizes of the row loops (the leading loops every op shares).
  SmallVector<int64_t> rows;
  /// The row length (the last loop of the ops that have one): static or
  /// ShapedType::kDynamic.
  int64_t rowLength;
  /// The widest element of the ops' operands, in bytes.
  int64_t elementBytes = 4;
};

/// The row groups among `roots` (the linalg ops of one function, in
/// program order) that may be one kernel: two ops or more, one of them a
/// reduction along the row that `isLaneReducible` accepts. Ops in
/// `excluded` are left out.
SmallVector<RowGroup>
findRowGroups(ArrayRef<linalg::LinalgOp> roots,
              llvm::function_ref<bool(linalg::LinalgOp)> isLaneReducible,
              const llvm::SmallPtrSetImpl<Operation *> &excluded);

/// Whether rows of `rowLength` elements (static, or ShapedType::kDynamic)
/// run a thread per row: static rows shorter than a warp, whose idle lanes
/// would outnumber the busy ones.
bool takesThreadPerRow(int64_t rowLength, int64_t warpSize);

/// How many threads share each row of `group` when it runs as one kernel on
/// `target`; 0 when it runs better split (its reductions
/// across blocks by qimeng-split-reductions, then op by op).
/// - Rows shorter than a warp: 1, a thread per row.
/// - A dynamic number of rows: a block per row of a power of two threads
///   from a warp to 256, each with 16 elements of a static row or more (a
///   warp for a dynamic row length).
/// - Rows enough to keep the GPU busy (16 warps per SM): a warp per row.
/// - Fewer rows: a block per row, with the threads the GPU needs in all
///   (16 warps per SM), a power of two from a warp to the most threads a
///   block takes that leaves every thread
///   8 elements of a static row or more — when a row is at most 512 KB (a
///   block streams it three or four times sooner than a split's kernels
///   launch); longer rows (a layer norm over 4M elements) are split.
int64_t getRowLanes(const RowGroup &group, const TargetProfile &target);

/// Whether `group` runs as one kernel: getRowLanes(group, target) > 0.
bool isWorthOneKernel(const RowGroup &group, const TargetProfile &target);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_ROWGROUPS_H
