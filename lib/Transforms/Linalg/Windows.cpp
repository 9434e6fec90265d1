//===- Windows.cpp - Convolutions and pooling before planning -------------===//
//
// A convolution or pooling over `tensor.pad`'s result read the padded copy
// that a kernel of its own wrote (input read once, written once, read again;
// a launch more): on the H200 a depthwise 3x3 over 8x96x112x28 took three
// kernels and 0.28x eager. Fused, the window reads the source at clamped
// indices and selects the padding value outside it. The same depthwise
// convolution ran its threads along the channels (its loops are
// (n, oh, ow, c)): strided reads and writes, and no bias fusion.
//
//===----------------------------------------------------------------------===//

#include "Windows.h"

#include "QiMeng/Transforms/Linalg/Generalize.h"

#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// The most inputs an output of a window reads (the product of its
/// reduction loops) for its padding to be fused: a 7x7 depthwise window or
/// an 8x8 pool, a 3x3 convolution over up to 7 channels.
constexpr int64_t kMaxFusedWindowReads = 64;

/// Whether `producer` is a gather: a generic with no inputs, parallel loops
/// only, one result written in loop order and not read (the value is made
/// anew: fused into a window, an output it updated would become a second
/// output of the window, updated once per read), whose body reads a tensor
/// by `tensor.extract` (what PadToGeneric makes of `tensor.pad`).
bool isGather(Operation *producer) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(producer);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic->getNumResults() != 1 || generic.getNumReductionLoops() != 0 ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return false;
  return !generic.getBody()->getOps<tensor::ExtractOp>().empty();
}

/// Whether every loop of `op` is still indexed by an operand other than
/// `fused` (linalg's elementwise fusion needs each loop's size from some
/// operand; the gather has none of its own).
bool keepsLoopSizes(linalg::LinalgOp op, OpOperand &fused) {
  llvm::BitVector covered(op.getNumLoops(), false);
  for (OpOperand &operand : op->getOpOperands()) {
    if (&operand == &fused)
      continue;
    for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        covered.set(dim.getPosition());
  }
  return covered.all();
}

/// Whether `op` is a convolution or pooling on tensors.
bool isWindow(linalg::LinalgOp op) {
  Family family = classify(op);
  return (family == Family::Convolution || family == Family::Pooling) &&
         op.hasPureTensorSemantics();
}

/// A window whose output stores its parallel loops in another order than
/// the loops run: the loops interchanged into the output's order (the
/// reduction loops after them, as they were).
struct OrderWindowLoops : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isWindow(op) || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not a window on tensors");
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (!out.isProjectedPermutation() ||
        out.getNumResults() != op.getNumParallelLoops())
      return rewriter.notifyMatchFailure(op, "output not over its loops");
    SmallVector<unsigned> permutation;
    for (unsigned r = 0; r < out.getNumResults(); ++r)
      permutation.push_back(out.getDimPosition(r));
    for (auto [i, iterator] : llvm::enumerate(iterators))
      if (iterator != utils::IteratorType::parallel)
        permutation.push_back(i);
    if (llvm::equal(permutation, llvm::seq<unsigned>(0, iterators.size())))
      return rewriter.notifyMatchFailure(op, "loops in the output's order");
    bool generalized;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, op, generalized);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    if (failed(linalg::interchangeGenericOp(rewriter, *generic, permutation)))
      return success(generalized);
    return success();
  }
};

struct FusePaddingIntoWindow
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isWindow(op))
      return rewriter.notifyMatchFailure(op, "not a window on tensors");
    // Each read of the window then clamps its indices and selects: worth a
    // pass over the input for small windows (pooling, depthwise), not when
    // every output reads many inputs (a dense convolution over 96 channels,
    // 864 reads an output, went from 0.139 to 0.162 ms on the H200).
    int64_t reads = 1;
    for (auto [range, iterator] :
         llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction)
        reads = ShapedType::isDynamic(range)
                    ? kMaxFusedWindowReads + 1
                    : std::min(reads * range, kMaxFusedWindowReads + 1);
    if (reads > kMaxFusedWindowReads)
      return rewriter.notifyMatchFailure(op, "a large window");
    OpOperand *padded = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Operation *producer = input->get().getDefiningOp();
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (type && isGather(producer) && producer->hasOneUse() &&
          op.getMatchingIndexingMap(input).getNumResults() ==
              static_cast<unsigned>(type.getRank()) &&
          keepsLoopSizes(op, *input)) {
        padded = input;
        break;
      }
    }
    if (!padded)
      return rewriter.notifyMatchFailure(op, "no padded input to fuse");
    unsigned operandNumber = padded->getOperandNumber();
    bool generalized;
    FailureOr<linalg::GenericOp> genericOr =
        getOrGeneralize(rewriter, op, generalized);
    if (failed(genericOr))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    linalg::GenericOp generic = *genericOr;
    OpOperand &operand = generic->getOpOperand(operandNumber);
    // The checks above are upstream's fusability conditions; should fusion
    // still fail, a generalized op is a change (success), a generic none.
    if (!linalg::areElementwiseOpsFusable(&operand))
      return success(generalized);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, &operand);
    if (failed(fused))
      return success(generalized);
    Operation *producer = operand.get().getDefiningOp();
    for (auto [original, replacement] : fused->replacements)
      rewriter.replaceAllUsesExcept(original, replacement, fused->fusedOp);
    rewriter.eraseOp(generic);
    if (producer->use_empty())
      rewriter.eraseOp(producer);
    return success();
  }
};

} // namespace

void mlir::qimeng::populateWindowPatterns(RewritePatternSet &patterns) {
  // Loops ordered first (a higher benefit): the fused body keeps them.
  patterns.add<OrderWindowLoops>(patterns.getContext(), /*benefit=*/2);
  patterns.add<FusePaddingIntoWindow>(patterns.getContext());
}
