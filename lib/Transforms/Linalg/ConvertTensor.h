//===- ConvertTensor.h - Float tensors to another width ---------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_CONVERTTENSOR_H
#define QIMENG_LIB_TRANSFORMS_LINALG_CONVERTTENSOR_H

#include "mlir/IR/Builders.h"

namespace mlir::qimeng {

/// `value` (a float tensor) converted to `element` (extended or truncated)
/// by a linalg.generic over its whole shape, into `destination` (a new
/// tensor when null).
Value convertTensor(OpBuilder &b, Location loc, Value value, Type element,
                    Value destination = nullptr);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_CONVERTTENSOR_H
