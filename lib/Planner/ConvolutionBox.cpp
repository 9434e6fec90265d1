//===- ConvolutionBox.cpp - Outputs per thread of a convolution -----------===//

#include "QiMeng/Planner/ConvolutionBox.h"
#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::qimeng;

SmallVector<unsigned> mlir::qimeng::getThreadLoops(linalg::LinalgOp op) {
  SmallVector<unsigned> loops;
  for (auto [i, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      loops.push_back(i);
  std::reverse(loops.begin(), loops.end());
  loops.truncate(std::min<size_t>(loops.size(), 3));
  return loops;
}

bool mlir::qimeng::isGatheredWindow(linalg::LinalgOp op) {
  return op.getNumReductionLoops() >= 2 &&
         !op.getBlock()->getOps<tensor::ExtractOp>().empty();
}

llvm::SmallBitVector
mlir::qimeng::getBodyLoops(linalg::LinalgOp op, Value value,
                           DenseMap<Value, llvm::SmallBitVector> &memo) {
  unsigned loops = op.getNumLoops();
  if (auto found = memo.find(value); found != memo.end())
    return found->second;
  llvm::SmallBitVector result(loops);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == op.getBlock()) {
      AffineMap map =
          op.getMatchingIndexingMap(&op->getOpOperand(arg.getArgNumber()));
      for (unsigned d = 0; d < loops; ++d)
        if (map.isFunctionOfDim(d))
          result.set(d);
    }
  } else if (Operation *def = value.getDefiningOp();
             def && op->isProperAncestor(def)) {
    if (auto index = dyn_cast<linalg::IndexOp>(def)) {
      result.set(index.getDim());
    } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      // Only the operands its map uses (an apply of all the loops' indices
      // that adds two of them).
      AffineMap map = apply.getAffineMap();
      for (auto [i, operand] : llvm::enumerate(apply.getMapOperands()))
        if (i < map.getNumDims() ? map.isFunctionOfDim(i)
                                 : map.isFunctionOfSymbol(i - map.getNumDims()))
          result |= getBodyLoops(op, operand, memo);
    } else {
      for (Value operand : def->getOperands())
        result |= getBodyLoops(op, operand, memo);
    }
  }
  memo[value] = result;
  return result;
}

SmallVector<int64_t> mlir::qimeng::getConvolutionBox(linalg::LinalgOp op,
                                                     ArrayRef<int64_t> bounds,
                                                     ArrayRef<unsigned> mapped,
                                                     int64_t numSMs) {
  // The window's reads: each index of an input read through a strided map
  // (`h + kh`), or of a tensor.extract in the body (a padded input read
  // through its source, `qimeng-prepare`'s FusePadding), as the set of
  // loops it depends on.
  Family family = classify(op);
  bool gathers = family == Family::Reduction && isGatheredWindow(op);
  if (family != Family::Convolution && !gathers)
    return {};
  unsigned loops = op.getNumLoops();
  SmallVector<llvm::SmallBitVector> windowIndices;
  OpOperand *window = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (window || map.isProjectedPermutation(/*allowZeroInResults=*/true))
      continue;
    window = input;
    for (AffineExpr expr : map.getResults()) {
      llvm::SmallBitVector dims(loops);
      for (unsigned d = 0; d < loops; ++d)
        if (expr.isFunctionOfDim(d))
          dims.set(d);
      windowIndices.push_back(dims);
    }
  }
  DenseMap<Value, llvm::SmallBitVector> memo;
  op.getBlock()->walk([&](tensor::ExtractOp extract) {
    for (Value index : extract.getIndices())
      windowIndices.push_back(getBodyLoops(op, index, memo));
  });
  if (windowIndices.empty() || (gathers && window))
    return {};
  // Weights to share: an input the body uses, read along a reduction loop
  // (a padded pooling's window-shape operand is never read).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool weights = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    if (input == window || !isa<ShapedType>(input->get().getType()) ||
        op.getMatchingBlockArgument(input).use_empty())
      return false;
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [d, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::reduction && map.isFunctionOfDim(d))
        return true;
    return false;
  });
  if (!weights)
    return {};
  std::optional<unsigned> filter, pixel;
  for (unsigned dim : mapped) {
    if (ShapedType::isDynamic(bounds[dim]))
      continue;
    bool readByWindow = llvm::any_of(
        windowIndices, [&](const auto &dims) { return dims.test(dim); });
    bool readByOther =
        llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return input != window && isa<ShapedType>(input->get().getType()) &&
                 op.getMatchingIndexingMap(input).isFunctionOfDim(dim);
        });
    if (!filter && !readByWindow && readByOther)
      filter = dim;
    bool shifted = llvm::any_of(windowIndices, [&](const auto &dims) {
      if (!dims.test(dim))
        return false;
      for (unsigned d : dims.set_bits())
        if (iterators[d] == utils::IteratorType::reduction)
          return true;
      return false;
    });
    if (!pixel && shifted)
      pixel = dim;
  }
  // Without a filter loop (a depthwise convolution), a box of pixels still
  // shares the weights' reads.
  if (!filter && !pixel)
    return {};
  SmallVector<int64_t> box(bounds.size(), 1);
  auto largestDivisor = [&](unsigned dim, int64_t most) {
    for (int64_t count = most; count > 1; count /= 2)
      if (bounds[dim] % count == 0)
        return count;
    return int64_t(1);
  };
  if (filter)
    box[*filter] = largestDivisor(*filter, kMaxBoxFilters);
  if (pixel)
    box[*pixel] = largestDivisor(*pixel, kMaxBoxPixels);
  int64_t outputs = 1;
  for (auto [bound, iterator] : llvm::zip(bounds, iterators))
    if (iterator == utils::IteratorType::parallel)
      outputs *= ShapedType::isDynamic(bound) ? 1 : bound;
  auto threads = [&] {
    return outputs / ((filter ? box[*filter] : 1) * (pixel ? box[*pixel] : 1));
  };
  while (numSMs > 0 && threads() < numSMs * kMinBoxThreadsPerSM) {
    if (pixel && box[*pixel] > 1)
      box[*pixel] /= 2;
    else if (filter && box[*filter] > 1)
      box[*filter] /= 2;
    else
      break;
  }
  if (llvm::all_of(box, [](int64_t count) { return count == 1; }))
    return {};
  return box;
}
