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
};

/// The row groups among `roots` (the linalg ops of one function, in
/// program order) that may be one kernel: two ops or more, one of them a
/// reduction along the row that `isLaneReducible` accepts. Ops in
/// `excluded` are left out.
SmallVector<RowGroup>
findRowGroups(ArrayRef<linalg::LinalgOp> roots,
              llvm::function_ref<bool(linalg::LinalgOp)> isLaneReducible,
              const llvm::SmallPtrSetImpl<Operation *> &excluded);

/// Whether `group` runs best as one kernel, a warp per row: with rows enough
/// to keep a GPU of `numSMs` SMs busy (16 warps per SM), or rows short
/// enough (8192 elements or fewer) that a warp gets through its row sooner
/// than the separate kernels (and their launches) of a split would. Longer
/// rows that are few are better split across warps
/// (qimeng-split-reductions) and planned op by op.
bool isWorthOneKernel(const RowGroup &group, int64_t numSMs);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_ROWGROUPS_H
