//===- Gathers.h - Generics reading their sources at computed indices -*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_GATHERS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_GATHERS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::qimeng {

/// A linalg.generic that writes each element of `init` (of `type`), all its
/// loops parallel: the value `element` builds from the element's indices
/// (linalg.index) and its value in `init`. The form of the gathers of
/// qimeng-prepare (pads, inserts, concatenations, im2col), which read their
/// sources at computed, clamped indices.
inline linalg::GenericOp buildGather(
    OpBuilder &b, Location loc, RankedTensorType type, Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> element) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, type, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(nested, loc, d));
        linalg::YieldOp::create(nested, loc,
                                element(nested, loc, indices, args.front()));
      });
}

/// Where the sum of a matmul's parts (or its padded product's corner) goes
/// for the matmul output `init`: over a zero fill's destination when the
/// fill is its only use (`accumulate` false, the fill dropped), else into
/// `init` itself, added to its values.
struct ProductDestination {
  Value dest;
  bool accumulate;
};
inline ProductDestination getProductDestination(Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) &&
        fill->hasOneUse())
      return {fill.getOutputs()[0], false};
  return {init, true};
}

/// An index constant.
inline Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `index` clamped to [0, `last`]: the gathers read their sources there
/// and select what lies outside.
inline Value clampIndex(OpBuilder &b, Location loc, Value index, Value last) {
  return arith::MaxSIOp::create(b, loc,
                                arith::MinSIOp::create(b, loc, index, last),
                                arith::ConstantIndexOp::create(b, loc, 0));
}

/// The size a matmul dimension is padded to so the matmul plans take whole
/// tiles: a multiple of `tile` when it is that large, else the power of two
/// at least `smallest` that holds it.
inline int64_t getPaddedSize(int64_t size, int64_t tile, int64_t smallest) {
  if (size >= tile)
    return llvm::alignTo(size, tile);
  return std::max<int64_t>(smallest, llvm::PowerOf2Ceil(size));
}

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_GATHERS_H
