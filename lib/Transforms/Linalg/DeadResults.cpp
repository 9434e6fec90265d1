//===- DeadResults.cpp - Drop what a generic computes for nobody ----------===//

#include "DeadResults.h"

#include "QiMeng/Transforms/Linalg/Generalize.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::qimeng {
namespace {

/// The body operations that the yielded values other than `dead` need,
/// transitively.
llvm::SmallPtrSet<Operation *, 16> getLiveOps(Block &body, unsigned dead) {
  llvm::SmallPtrSet<Operation *, 16> live;
  SmallVector<Value> worklist;
  Operation *yield = body.getTerminator();
  for (auto [i, value] : llvm::enumerate(yield->getOperands()))
    if (i != dead)
      worklist.push_back(value);
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != &body || !live.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
    // Values used inside the op's regions count too.
    def->walk([&](Operation *nested) {
      if (nested != def)
        llvm::append_range(worklist, nested->getOperands());
    });
  }
  return live;
}

struct DropDeadResult : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() < 2)
      return rewriter.notifyMatchFailure(op, "not a multi-result generic on "
                                             "tensors");
    Block &body = op.getRegion().front();
    unsigned numInputs = op.getNumDpsInputs();
    for (unsigned r = 0, e = op.getNumResults(); r < e; ++r) {
      if (!op.getResult(r).use_empty())
        continue;
      llvm::SmallPtrSet<Operation *, 16> live = getLiveOps(body, r);
      BlockArgument init = body.getArgument(numInputs + r);
      Operation *yield = body.getTerminator();
      bool needed = llvm::any_of(init.getUsers(), [&](Operation *user) {
        Operation *top = body.findAncestorOpInBlock(*user);
        return top == yield ? false : live.contains(top);
      });
      for (auto [i, value] : llvm::enumerate(yield->getOperands()))
        needed |= i != r && value == init;
      // What only the dead result needs is dropped: it must be pure.
      bool pure = llvm::all_of(body.without_terminator(), [&](Operation &o) {
        return live.contains(&o) || isPure(&o);
      });
      if (needed || !pure)
        continue;
      dropResult(rewriter, op, r);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no result is dead");
  }

  /// Rebuilds `op` without result `r`, its init and the body it alone needs.
  static void dropResult(PatternRewriter &rewriter, linalg::GenericOp op,
                         unsigned r) {
    unsigned numInputs = op.getNumDpsInputs();
    SmallVector<Value> inits;
    SmallVector<Type> types;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input));
    for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i) {
      if (i == r)
        continue;
      OpOperand *init = op.getDpsInitOperand(i);
      inits.push_back(init->get());
      types.push_back(op.getResult(i).getType());
      maps.push_back(op.getMatchingIndexingMap(init));
    }
    linalg::GenericOp rebuilt =
        rebuildGeneric(rewriter, op, types, op.getDpsInputs(), inits, maps);
    Block &body = rebuilt.getRegion().front();
    Operation *yield = body.getTerminator();
    rewriter.modifyOpInPlace(yield, [&] { yield->eraseOperand(r); });
    // Erase what no one uses any more (a user first, then what it used).
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation &o : llvm::make_early_inc_range(body.without_terminator()))
        if (o.use_empty()) {
          rewriter.eraseOp(&o);
          erased = true;
        }
    }
    body.eraseArgument(numInputs + r);
    for (unsigned i = 0, j = 0, e = op.getNumResults(); i < e; ++i)
      if (i != r)
        rewriter.replaceAllUsesWith(op.getResult(i), rebuilt.getResult(j++));
    rewriter.eraseOp(op);
  }
};

} // namespace

void populateDeadResultPatterns(RewritePatternSet &patterns) {
  patterns.add<DropDeadResult>(patterns.getContext());
}

} // namespace mlir::qimeng
