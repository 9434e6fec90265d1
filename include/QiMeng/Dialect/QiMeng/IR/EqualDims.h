//===- EqualDims.h - Argument sizes a function's IR ties together -*- C++ -*-===//
//
// Which dimensions of a function's arguments the IR requires to be equal: a
// linalg op indexes them with the same loop, a result built with
// tensor.empty takes its size from an argument, ... A runner given some
// arguments' shapes infers the dynamic sizes of the others from these
// (an output argument's batch from its input's). Kernels record them on the
// function (kEqualDimsAttrName) before lowering removes the linalg ops.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_IR_EQUALDIMS_H
#define QIMENG_DIALECT_QIMENG_IR_EQUALDIMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir::qimeng {

/// Dimension `dim` of argument `arg`.
struct ArgDim {
  unsigned arg;
  unsigned dim;
  bool operator==(const ArgDim &other) const {
    return arg == other.arg && dim == other.dim;
  }
};

/// The function attribute holding the equalities: a flat array of i64,
/// four per equality (argument, dimension, argument, dimension).
constexpr llvm::StringLiteral kEqualDimsAttrName = "qimeng.equal_dims";

/// Pairs of dynamic argument dimensions of `func` that its ops require to be
/// equal (through linalg indexing maps, tensor.empty / memref.alloc sizes
/// read with tensor.dim / memref.dim, casts and the returned values). Each
/// dynamic dimension tied to another appears in one pair with the first
/// dimension of its class.
SmallVector<std::pair<ArgDim, ArgDim>> findEqualArgDims(func::FuncOp func);

/// The equalities recorded on `op` (kEqualDimsAttrName), none when absent.
SmallVector<std::pair<ArgDim, ArgDim>> getRecordedEqualDims(Operation *op);

/// Completes `shapes` (one per argument, std::nullopt for a size not known
/// yet): each unknown size tied by `equalities` to a known one takes its
/// value.
void inferSizes(ArrayRef<std::pair<ArgDim, ArgDim>> equalities,
                MutableArrayRef<SmallVector<std::optional<int64_t>>> shapes);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_IR_EQUALDIMS_H
