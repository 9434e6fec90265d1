//===- LoopAccumulators.cpp - Accumulators of serial loops in registers ---===//

#include "QiMeng/Dialect/QiMeng/TransformOps/LoopAccumulators.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;

namespace {
/// A memory effect of an op nested in a loop, on the buffer `root`.
struct Access {
  Operation *op;
  Value root;
};
} // namespace

/// The accesses of the ops nested in `loop`'s body, or failure when an op
/// may touch memory it does not name (no effect interface, or an effect on
/// no value: a call). A barrier touches no memory of its own: it only
/// orders the accesses of the threads around it, and what could be
/// reordered by hoisting is the accumulator's own accesses, which no other
/// op of the loop may make (see findAccumulator).
static FailureOr<SmallVector<Access>> collectAccesses(scf::ForOp loop) {
  SmallVector<Access> accesses;
  WalkResult walked = loop.getBody()->walk([&](Operation *op) {
    // Loops and branches: their effects are their nested ops', walked too.
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isa<gpu::BarrierOp>(op))
      return WalkResult::advance();
    auto effecting = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effecting)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    effecting.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value value = effect.getValue();
      if (!value)
        return WalkResult::interrupt();
      accesses.push_back({op, qimeng::getViewRoot(value)});
    }
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  return accesses;
}

namespace {
/// Where a store of a loop body writes: a `memref.store`, or a
/// `vector.transfer_write` to a memref, unmasked and in bounds (a read of
/// its location then sees every element the carried vector holds).
struct StoredPlace {
  Value memref;
  ValueRange indices;
};
} // namespace

static std::optional<StoredPlace> getStoredLocation(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return StoredPlace{store.getMemRef(), store.getIndices()};
  auto write = dyn_cast<vector::TransferWriteOp>(op);
  if (!write || !isa<MemRefType>(write.getShapedType()) || write.getMask() ||
      !llvm::all_of(write.getInBoundsValues(), [](bool in) { return in; }))
    return std::nullopt;
  return StoredPlace{write.getBase(), write.getIndices()};
}

/// Whether `read` reads exactly what `store` (a memref.store or a qualifying
/// vector.transfer_write) writes: the same memref and indices and, for
/// vectors, what upstream's checkSameValueRAW asks (type, permutation,
/// masks).
static bool readsStoredLocation(Operation *read, Operation *store) {
  if (auto load = dyn_cast<memref::LoadOp>(read)) {
    auto scalar = dyn_cast<memref::StoreOp>(store);
    return scalar && load.getMemRef() == scalar.getMemRef() &&
           llvm::equal(load.getIndices(), scalar.getIndices());
  }
  auto transfer = dyn_cast<vector::TransferReadOp>(read);
  auto write = dyn_cast<vector::TransferWriteOp>(store);
  return transfer && write && transfer.getBase() == write.getBase() &&
         vector::checkSameValueRAW(write, transfer);
}

/// Whether `other` is a vector transfer of the same memref as `store` (a
/// qualifying vector.transfer_write) whose elements provably differ from
/// the stored ones: another accumulator tile of the same output.
static bool isDisjointTransfer(Operation *other, Operation *store) {
  auto write = dyn_cast<vector::TransferWriteOp>(store);
  auto transfer = dyn_cast<VectorTransferOpInterface>(other);
  return write && transfer && transfer.getBase() == write.getBase() &&
         vector::isDisjointTransferSet(
             cast<VectorTransferOpInterface>(write.getOperation()), transfer,
             /*testDynamicValueUsingBounds=*/true);
}

namespace {
/// A store of a loop body that can become a loop-carried value, with the
/// reads of its location.
struct Accumulator {
  Operation *store;
  StoredPlace location;
  SmallVector<Operation *> loads;
};
} // namespace

/// The first store of `loop`'s body that qualifies (see
/// hoistLoopAccumulators), if any.
static std::optional<Accumulator> findAccumulator(scf::ForOp loop) {
  FailureOr<SmallVector<Access>> accesses = collectAccesses(loop);
  if (failed(accesses))
    return std::nullopt;
  Block *body = loop.getBody();
  for (Operation &store : *body) {
    std::optional<StoredPlace> location = getStoredLocation(&store);
    if (!location || !loop.isDefinedOutsideOfLoop(location->memref) ||
        !llvm::all_of(location->indices, [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      continue;
    Value root = qimeng::getViewRoot(location->memref);
    Accumulator accumulator{&store, *location, {}};
    bool alone = llvm::all_of(*accesses, [&](const Access &access) {
      if (access.root != root || access.op == &store ||
          isDisjointTransfer(access.op, &store))
        return true;
      if (access.op->getBlock() != body ||
          !readsStoredLocation(access.op, &store))
        return false;
      accumulator.loads.push_back(access.op);
      return true;
    });
    if (alone)
      return accumulator;
  }
  return std::nullopt;
}

/// A read of `accumulator`'s location before `loop`.
static Value readBefore(RewriterBase &rewriter, scf::ForOp loop,
                        const Accumulator &accumulator) {
  StoredPlace where = accumulator.location;
  Location loc = accumulator.store->getLoc();
  rewriter.setInsertionPoint(loop);
  if (isa<memref::StoreOp>(accumulator.store))
    return memref::LoadOp::create(rewriter, loc, where.memref, where.indices);
  auto write = cast<vector::TransferWriteOp>(accumulator.store);
  Type element = write.getVectorType().getElementType();
  Value padding = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(element)));
  return vector::TransferReadOp::create(
      rewriter, loc, write.getVectorType(), where.memref, where.indices,
      write.getPermutationMapAttr(), padding, /*mask=*/Value(),
      write.getInBoundsAttr());
}

/// Moves `accumulator` out of `loop` (one read before, one store after),
/// returning the loop that replaces `loop`.
static scf::ForOp hoist(RewriterBase &rewriter, scf::ForOp loop,
                        const Accumulator &accumulator) {
  Operation *store = accumulator.store;
  Value initial = readBefore(rewriter, loop, accumulator);
  Value stored = store->getOperand(0);
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{stored};
      });
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  Value carried = newLoop.getRegionIterArgs().back();
  // A read after the store in the same iteration reads the stored value.
  for (Operation *load : accumulator.loads)
    rewriter.replaceOp(load, load->isBeforeInBlock(store) ? carried : stored);
  // The store itself moves after the loop and stores the loop's result.
  rewriter.moveOpAfter(store, newLoop);
  rewriter.modifyOpInPlace(
      store, [&] { store->setOperand(0, newLoop.getResults().back()); });
  return newLoop;
}

unsigned mlir::qimeng::hoistLoopAccumulators(RewriterBase &rewriter,
                                             Operation *root) {
  // Innermost loops first: what leaves an inner loop is in the body of the
  // loop around it, which can then carry it in turn.
  SmallVector<scf::ForOp> loops;
  root->walk<WalkOrder::PostOrder>(
      [&](scf::ForOp loop) { loops.push_back(loop); });
  unsigned hoisted = 0;
  for (scf::ForOp loop : loops) {
    // Indices and views computed in the body (constants convert_to_loops
    // leaves there) go first.
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    // Replacing the loop keeps the loops around it (collected later).
    while (std::optional<Accumulator> accumulator = findAccumulator(loop)) {
      loop = hoist(rewriter, loop, *accumulator);
      ++hoisted;
    }
  }
  return hoisted;
}

FailureOr<Operation *>
mlir::qimeng::moveReductionLoopsInnermost(RewriterBase &rewriter,
                                          Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return failure();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  SmallVector<unsigned> permutation;
  for (auto kind :
       {utils::IteratorType::parallel, utils::IteratorType::reduction})
    for (auto [i, iterator] : llvm::enumerate(iterators))
      if (iterator == kind)
        permutation.push_back(i);
  // Other iterator kinds (none in linalg today) keep the op as it is.
  if (permutation.size() != iterators.size())
    return op;
  if (llvm::equal(permutation, llvm::seq<unsigned>(0, iterators.size())))
    return op;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, linalgOp);
    if (failed(generalized))
      return failure();
    generic = *generalized;
  }
  FailureOr<linalg::GenericOp> interchanged =
      linalg::interchangeGenericOp(rewriter, generic, permutation);
  if (failed(interchanged))
    return failure();
  return interchanged->getOperation();
}

/// Whether `op` qualifies for lowerRegisterBlock: on buffers, static loops,
/// parallel and reduction ones, a box of 2 to kMaxRegisterBlock output
/// elements, outputs indexed by parallel loops only, no input viewing an
/// output's buffer, and a body that writes no memory.
static bool isRegisterBlock(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0 ||
      op.getNumParallelLoops() == 0 || op.getNumDpsInits() == 0)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t elements = 1;
  for (auto [range, iterator] : llvm::zip(ranges, iterators)) {
    if (iterator != utils::IteratorType::parallel &&
        iterator != utils::IteratorType::reduction)
      return false;
    if (iterator == utils::IteratorType::parallel)
      elements *= range;
  }
  if (elements < 2 ||
      elements * op.getNumDpsInits() > qimeng::kMaxRegisterBlock)
    return false;
  llvm::SmallDenseSet<Value> outputs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!isa<MemRefType>(init.get().getType()))
      return false;
    outputs.insert(qimeng::getViewRoot(init.get()));
    for (AffineExpr expr : op.getMatchingIndexingMap(&init).getResults()) {
      if (isa<AffineConstantExpr>(expr))
        continue;
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || iterators[dim.getPosition()] != utils::IteratorType::parallel)
        return false;
    }
  }
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()) &&
        (!isa<MemRefType>(input->get().getType()) ||
         outputs.contains(qimeng::getViewRoot(input->get()))))
      return false;
  // Reads in the body (a padded input read through its source) must not
  // see an output either.
  WalkResult walked = op.getBlock()->walk([&](Operation *nested) {
    if (auto load = dyn_cast<memref::LoadOp>(nested))
      return outputs.contains(qimeng::getViewRoot(load.getMemRef()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (isa<linalg::IndexOp, linalg::YieldOp>(nested) ||
        isMemoryEffectFree(nested) ||
        hasSingleEffect<MemoryEffects::Read>(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walked.wasInterrupted();
}

/// The value of each loop at box element `element` (row-major over the
/// parallel loops' ranges) and reduction induction variables `ivs` (in loop
/// order; none: 0 for every reduction loop).
static SmallVector<OpFoldResult>
getLoopValues(OpBuilder &b, ArrayRef<int64_t> ranges,
              ArrayRef<utils::IteratorType> iterators, int64_t element,
              ValueRange ivs) {
  SmallVector<OpFoldResult> values(ranges.size());
  for (int64_t d = static_cast<int64_t>(ranges.size()) - 1; d >= 0; --d)
    if (iterators[d] == utils::IteratorType::parallel) {
      values[d] = b.getIndexAttr(element % ranges[d]);
      element /= ranges[d];
    }
  unsigned next = 0;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      values[d] = ivs.empty() ? OpFoldResult(b.getIndexAttr(0)) : ivs[next++];
  return values;
}

/// The indices `map` gives at loop values `loops`.
static SmallVector<Value> getIndices(OpBuilder &b, Location loc, AffineMap map,
                                     ArrayRef<OpFoldResult> loops) {
  return getValueOrCreateConstantIndexOp(
      b, loc,
      affine::makeComposedFoldedMultiResultAffineApply(b, loc, map, loops));
}

/// Lowers `op` (isRegisterBlock) as lowerRegisterBlocks describes.
static void lowerRegisterBlock(RewriterBase &rewriter, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t elements = 1;
  SmallVector<Value> lbs, ubs, steps;
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [range, iterator] : llvm::zip(ranges, iterators)) {
    if (iterator == utils::IteratorType::parallel) {
      elements *= range;
      continue;
    }
    lbs.push_back(zero);
    ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, range));
    steps.push_back(one);
  }
  SmallVector<OpOperand *> inits = llvm::to_vector(llvm::map_range(
      op.getDpsInitsMutable(), [](OpOperand &init) { return &init; }));
  // Element e's output i is carried at e * inits + i; its indices are the
  // same before and after the nest.
  SmallVector<SmallVector<Value>> outputIndices;
  SmallVector<Value> initial;
  for (int64_t e = 0; e < elements; ++e) {
    SmallVector<OpFoldResult> loops =
        getLoopValues(rewriter, ranges, iterators, e, ValueRange());
    for (OpOperand *init : inits) {
      outputIndices.push_back(
          getIndices(rewriter, loc, op.getMatchingIndexingMap(init), loops));
      initial.push_back(memref::LoadOp::create(rewriter, loc, init->get(),
                                               outputIndices.back()));
    }
  }
  Block *body = op.getBlock();
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, initial,
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange carried) -> scf::ValueVector {
        scf::ValueVector next;
        for (int64_t e = 0; e < elements; ++e) {
          SmallVector<OpFoldResult> loops =
              getLoopValues(b, ranges, iterators, e, ivs);
          IRMapping map;
          for (OpOperand *input : op.getDpsInputOperands()) {
            BlockArgument arg = op.getMatchingBlockArgument(input);
            if (!isa<ShapedType>(input->get().getType())) {
              map.map(arg, input->get());
              continue;
            }
            map.map(arg, memref::LoadOp::create(
                             b, l, input->get(),
                             getIndices(b, l, op.getMatchingIndexingMap(input),
                                        loops)));
          }
          for (auto [i, init] : llvm::enumerate(inits))
            map.map(op.getMatchingBlockArgument(init),
                    carried[e * inits.size() + i]);
          for (Operation &nested : body->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
              map.map(index.getResult(), getValueOrCreateConstantIndexOp(
                                             b, l, loops[index.getDim()]));
              continue;
            }
            b.clone(nested, map);
          }
          for (Value yielded : body->getTerminator()->getOperands())
            next.push_back(map.lookupOrDefault(yielded));
        }
        return next;
      });
  rewriter.setInsertionPointAfter(nest.loops.front());
  for (auto [e, result] : llvm::enumerate(nest.results))
    memref::StoreOp::create(rewriter, loc, result,
                            inits[e % inits.size()]->get(), outputIndices[e]);
  rewriter.eraseOp(op);
}

unsigned mlir::qimeng::lowerRegisterBlocks(RewriterBase &rewriter,
                                           Operation *root) {
  SmallVector<linalg::LinalgOp> blocks;
  root->walk([&](linalg::LinalgOp op) {
    if (isRegisterBlock(op))
      blocks.push_back(op);
  });
  for (linalg::LinalgOp op : blocks)
    lowerRegisterBlock(rewriter, op);
  return blocks.size();
}
