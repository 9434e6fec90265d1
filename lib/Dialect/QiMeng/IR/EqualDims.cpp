//===- EqualDims.cpp - Argument sizes a function's IR ties together -------===//

#include "QiMeng/Dialect/QiMeng/IR/EqualDims.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <map>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A dimension of a shaped value, or a loop of a linalg op (value null,
/// `owner` the op).
struct Node {
  Value value;
  Operation *owner = nullptr;
  int64_t dim = 0;
  bool operator<(const Node &o) const {
    return std::make_tuple(value.getAsOpaquePointer(), owner, dim) <
           std::make_tuple(o.value.getAsOpaquePointer(), o.owner, o.dim);
  }
};

/// Union-find over dimensions and loops.
class Relations {
public:
  void tie(Node a, Node b) {
    Node ra = find(a), rb = find(b);
    if (ra < rb || rb < ra)
      parent[ra] = rb;
  }
  void tieDims(Value a, Value b) {
    auto ta = dyn_cast<ShapedType>(a.getType());
    auto tb = dyn_cast<ShapedType>(b.getType());
    if (!ta || !tb || !ta.hasRank() || !tb.hasRank() ||
        ta.getRank() != tb.getRank())
      return;
    for (int64_t d = 0; d < ta.getRank(); ++d)
      tie({a, nullptr, d}, {b, nullptr, d});
  }
  /// The dimension a `tensor.dim`/`memref.dim` index value reads, if any.
  std::optional<Node> readDim(Value size) {
    Operation *def = size.getDefiningOp();
    Value source, index;
    if (auto dim = dyn_cast_or_null<tensor::DimOp>(def)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else if (auto dim = dyn_cast_or_null<memref::DimOp>(def)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else {
      return std::nullopt;
    }
    std::optional<int64_t> i = getConstantIntValue(index);
    if (!i)
      return std::nullopt;
    return Node{source, nullptr, *i};
  }
  /// The sizes of a fresh tensor or buffer of `type` made from `sizes`.
  void tieFresh(Value result, ShapedType type, ValueRange sizes) {
    unsigned next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d) && next < sizes.size())
        if (std::optional<Node> read = readDim(sizes[next++]))
          tie({result, nullptr, d}, *read);
  }
  bool same(Node a, Node b) {
    Node ra = find(a), rb = find(b);
    return !(ra < rb) && !(rb < ra);
  }

private:
  Node find(Node n) {
    auto it = parent.find(n);
    if (it == parent.end())
      return n;
    Node root = find(it->second);
    it->second = root;
    return root;
  }
  std::map<Node, Node> parent;
};

} // namespace

SmallVector<std::pair<ArgDim, ArgDim>>
mlir::qimeng::findEqualArgDims(func::FuncOp func) {
  Relations rel;
  func.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<ShapedType>(operand.get().getType()))
          continue;
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        for (auto [d, e] : llvm::enumerate(map.getResults()))
          if (auto loop = dyn_cast<AffineDimExpr>(e))
            rel.tie({operand.get(), nullptr, static_cast<int64_t>(d)},
                    {Value(), op, loop.getPosition()});
      }
      for (auto [result, init] :
           llvm::zip(op->getResults(), linalgOp.getDpsInits()))
        rel.tieDims(result, init);
      return;
    }
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
      rel.tieDims(softmax.getInput(), softmax.getOutput());
      for (Value result : op->getResults())
        rel.tieDims(result, softmax.getOutput());
      return;
    }
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      // Unpadded dimensions keep their size.
      for (auto [d, low, high] : llvm::enumerate(pad.getMixedLowPad(),
                                                 pad.getMixedHighPad()))
        if (isConstantIntValue(low, 0) && isConstantIntValue(high, 0))
          rel.tie({pad.getSource(), nullptr, static_cast<int64_t>(d)},
                  {pad.getResult(), nullptr, static_cast<int64_t>(d)});
      return;
    }
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return rel.tieFresh(empty, empty.getType(), empty.getDynamicSizes());
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      return rel.tieFresh(alloc, alloc.getType(), alloc.getDynamicSizes());
    if (isa<tensor::CastOp, memref::CastOp, bufferization::ToTensorOp,
            bufferization::ToBufferOp>(op) &&
        op->getNumOperands() >= 1 && op->getNumResults() == 1)
      return rel.tieDims(op->getOperand(0), op->getResult(0));
  });
  // Each dynamic argument dimension with the first earlier one in its class.
  SmallVector<std::pair<ArgDim, ArgDim>> equalities;
  SmallVector<ArgDim> seen;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<ShapedType>(arg.getType());
    if (!type || !type.hasRank())
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      ArgDim here{arg.getArgNumber(), static_cast<unsigned>(d)};
      for (ArgDim other : seen)
        if (rel.same({func.getArgument(other.arg), nullptr, other.dim},
                     {arg, nullptr, d})) {
          equalities.push_back({other, here});
          break;
        }
      seen.push_back(here);
    }
  }
  return equalities;
}

SmallVector<std::pair<ArgDim, ArgDim>>
mlir::qimeng::getRecordedEqualDims(Operation *op) {
  SmallVector<std::pair<ArgDim, ArgDim>> equalities;
  auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kEqualDimsAttrName);
  if (!attr)
    return equalities;
  ArrayRef<int64_t> flat = attr.asArrayRef();
  for (size_t i = 0; i + 3 < flat.size(); i += 4) {
    if (llvm::any_of(flat.slice(i, 4), [](int64_t v) { return v < 0; }))
      continue;
    equalities.push_back(
        {{unsigned(flat[i]), unsigned(flat[i + 1])},
         {unsigned(flat[i + 2]), unsigned(flat[i + 3])}});
  }
  return equalities;
}

void mlir::qimeng::inferSizes(
    ArrayRef<std::pair<ArgDim, ArgDim>> equalities,
    MutableArrayRef<SmallVector<std::optional<int64_t>>> shapes) {
  auto at = [&](ArgDim d) -> std::optional<int64_t> * {
    if (d.arg >= shapes.size() || d.dim >= shapes[d.arg].size())
      return nullptr;
    return &shapes[d.arg][d.dim];
  };
  // Each pass moves known sizes one step along the pairs; the pairs of a
  // class all name its first dimension, so two passes reach every member.
  for (int pass = 0; pass < 2; ++pass)
    for (auto [a, b] : equalities) {
      std::optional<int64_t> *x = at(a), *y = at(b);
      if (!x || !y)
        continue;
      if (*x && !*y)
        *y = *x;
      else if (*y && !*x)
        *x = *y;
    }
}
