//===- ConvertTensor.cpp - Float tensors to another width -----------------===//

#include "ConvertTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::qimeng::convertTensor(OpBuilder &b, Location loc, Value value,
                                  Type element, Value destination) {
  auto type = cast<RankedTensorType>(value.getType());
  Value empty = destination;
  if (!empty) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
    empty = tensor::EmptyOp::create(b, loc, sizes, element);
  }
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{empty.getType()}, ValueRange{value}, ValueRange{empty},
      maps, iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value in = args[0];
        Value out = element.getIntOrFloatBitWidth() >
                            in.getType().getIntOrFloatBitWidth()
                        ? Value(arith::ExtFOp::create(nb, nl, element, in))
                        : Value(arith::TruncFOp::create(nb, nl, element, in));
        linalg::YieldOp::create(nb, nl, out);
      });
  return generic.getResult(0);
}

