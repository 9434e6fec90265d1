//===- LoopAccumulators.cpp - Accumulators of serial loops in registers ---===//

#include "QiMeng/Dialect/QiMeng/TransformOps/LoopAccumulators.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;

/// The allocation or argument `buffer` views.
static Value getRootBuffer(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

namespace {
/// A memory effect of an op nested in a loop, on the buffer `root`.
struct Access {
  Operation *op;
  Value root;
};
} // namespace

/// The accesses of the ops nested in `loop`'s body, or failure when an op
/// may touch memory it does not name (no effect interface, or an effect on
/// no value: a barrier, a call).
static FailureOr<SmallVector<Access>> collectAccesses(scf::ForOp loop) {
  SmallVector<Access> accesses;
  WalkResult walked = loop.getBody()->walk([&](Operation *op) {
    // Loops and branches: their effects are their nested ops', walked too.
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
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
      accesses.push_back({op, getRootBuffer(value)});
    }
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  return accesses;
}

/// Whether `load` reads exactly what `store` writes.
static bool readsStoredLocation(memref::LoadOp load, memref::StoreOp store) {
  return load.getMemRef() == store.getMemRef() &&
         llvm::equal(load.getIndices(), store.getIndices());
}

namespace {
/// A store of a loop body that can become a loop-carried value, with the
/// loads of its location.
struct Accumulator {
  memref::StoreOp store;
  SmallVector<memref::LoadOp> loads;
};
} // namespace

/// The first store of `loop`'s body that qualifies (see
/// hoistLoopAccumulators), if any.
static std::optional<Accumulator> findAccumulator(scf::ForOp loop) {
  FailureOr<SmallVector<Access>> accesses = collectAccesses(loop);
  if (failed(accesses))
    return std::nullopt;
  Block *body = loop.getBody();
  for (auto store : body->getOps<memref::StoreOp>()) {
    if (!loop.isDefinedOutsideOfLoop(store.getMemRef()) ||
        !llvm::all_of(store.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      continue;
    Value root = getRootBuffer(store.getMemRef());
    Accumulator accumulator{store, {}};
    bool alone = llvm::all_of(*accesses, [&](const Access &access) {
      if (access.root != root || access.op == store)
        return true;
      auto load = dyn_cast<memref::LoadOp>(access.op);
      if (!load || load->getBlock() != body ||
          !readsStoredLocation(load, store))
        return false;
      accumulator.loads.push_back(load);
      return true;
    });
    if (alone)
      return accumulator;
  }
  return std::nullopt;
}

/// Moves `accumulator` out of `loop` (one load before, one store after),
/// returning the loop that replaces `loop`.
static scf::ForOp hoist(RewriterBase &rewriter, scf::ForOp loop,
                        const Accumulator &accumulator) {
  memref::StoreOp store = accumulator.store;
  Location loc = store.getLoc();
  rewriter.setInsertionPoint(loop);
  Value initial = memref::LoadOp::create(rewriter, loc, store.getMemRef(),
                                         store.getIndices());
  Value stored = store.getValueToStore();
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{stored};
      });
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  Value carried = newLoop.getRegionIterArgs().back();
  // A load after the store in the same iteration reads the stored value.
  for (memref::LoadOp load : accumulator.loads)
    rewriter.replaceOp(load, load->isBeforeInBlock(store) ? carried : stored);
  rewriter.setInsertionPointAfter(newLoop);
  memref::StoreOp::create(rewriter, loc, newLoop.getResults().back(),
                          store.getMemRef(), store.getIndices());
  rewriter.eraseOp(store);
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
