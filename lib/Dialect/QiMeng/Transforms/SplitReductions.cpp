//===- SplitReductions.cpp - Reductions that fill the GPU -----------------===//
//
// A reduction with few outputs gives the built-in plans too few threads
// (softmax over 16 rows: 16 warps on a 132-SM GPU) and long serial sums (a
// layer norm over 4M elements per row). This pass splits such a reduction
// into a partial reduction with an extra parallel loop and a combining
// reduction over it (upstream linalg::splitReduction), after bringing it into
// the form that needs: no unit dimensions (upstream linalg::dropUnitDims),
// one reduction loop (contiguous reduction loops are collapsed into one). A
// reduction over several loops is brought into that form even when it is
// not split, since the built-in plans reduce along one loop.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/ConvolutionBox.h"
#include "QiMeng/Planner/OpFamily.h"
#include "QiMeng/Planner/RowGroups.h"
#include "QiMeng/Target/TargetProfile.h"
#include "QiMeng/Transforms/Linalg/Generalize.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGSPLITREDUCTIONSPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// Threads per SM the split aims for (half of the 2048 an sm_80/sm_90 SM
/// holds): enough loads in flight to reach the memory bandwidth.
constexpr int64_t kTargetThreadsPerSM = 1024;
/// Shortest part a split leaves to each output: 8 elements per lane of a
/// warp-reduced row, 8 per thread of a serially reduced column.
constexpr int64_t kMinWarpPart = 256;
constexpr int64_t kMinSerialPart = 8;

/// Drops the unit dimensions of `op` (upstream linalg::dropUnitDims):
/// unit-extent loops, and operand dimensions of size 1 read at constant 0 (a
/// keepdim output, a broadcast mean). The operands are collapsed and the
/// results expanded back by reshapes. Returns `op` unchanged when it has
/// none, or when its output has no other dimension (a full reduction keeps
/// a unit output dimension: the plans map parallel loops to threads).
linalg::GenericOp dropUnitDimensions(RewriterBase &rewriter,
                                     linalg::GenericOp op) {
  auto outType =
      cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType());
  if (llvm::all_of(outType.getShape(), [](int64_t d) { return d == 1; }))
    return op;
  linalg::ControlDropUnitDims options;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, op, options);
  if (failed(dropped))
    return op;
  auto rewritten = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
  rewritten->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.replaceOp(op, dropped->replacements);
  return rewritten;
}

/// Whether every map reads loop dimensions only (no constant results).
bool hasOnlyLoopResults(ArrayRef<AffineMap> maps) {
  return llvm::all_of(maps, [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/false);
  });
}

/// Collapses the reduction loops of `op` into one when they are adjacent
/// and contiguous in every operand, and no map has constant results.
FailureOr<linalg::LinalgOp> collapseReductionLoops(RewriterBase &rewriter,
                                                   linalg::GenericOp op) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  if (dims.size() < 2)
    return linalg::LinalgOp(op);
  for (unsigned i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return failure();
  // Upstream's collapse misreads constant results (a keepdim output of a
  // full reduction): only maps of loop dimensions are collapsed.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!hasOnlyLoopResults(maps))
    return failure();
  ReassociationIndices group(dims.begin(), dims.end());
  if (!linalg::areDimSequencesPreserved(maps, {group}))
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {group}, rewriter);
  if (failed(collapsed))
    return failure();
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

/// The most parallel loops a plan maps to GPU threads (x, y, z).
constexpr unsigned kMaxMappedLoops = 3;

/// How many of the reduction loops `dims` (in order) of `op` must be peeled
/// so that the rest, the innermost ones, collapse into one loop: adjacent,
/// and contiguous in every operand (collapseReductionLoops). At least one
/// is kept; with constant results in the maps (a keepdim output of a full
/// reduction), which do not collapse, only the innermost one.
unsigned countLoopsToPeel(linalg::GenericOp op, ArrayRef<unsigned> dims) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!hasOnlyLoopResults(maps))
    return dims.size() - 1;
  for (unsigned start = 0; start + 1 < dims.size(); ++start) {
    ArrayRef<unsigned> rest = dims.drop_front(start);
    bool adjacent = true;
    for (unsigned i = 1; i < rest.size(); ++i)
      adjacent &= rest[i] == rest[i - 1] + 1;
    ReassociationIndices group(rest.begin(), rest.end());
    if (adjacent && linalg::areDimSequencesPreserved(maps, {group}))
      return start;
  }
  return dims.size() - 1;
}

/// The combiner of a split reduction: the op that accumulates its one
/// output (binary), and its neutral element, from which the partial
/// results start.
struct Combiner {
  Operation *op;
  TypedAttr neutral;
};
std::optional<Combiner> getCombiner(linalg::LinalgOp op) {
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1 || combiners.front()->getNumOperands() != 2)
    return std::nullopt;
  std::optional<TypedAttr> neutral =
      arith::getNeutralElement(combiners.front());
  if (!neutral)
    return std::nullopt;
  return Combiner{combiners.front(), *neutral};
}

/// A tensor of `shape` (`element`s) filled with `neutral`: where partial
/// results start.
Value createNeutralTensor(RewriterBase &rewriter, Location loc,
                          ArrayRef<int64_t> shape, Type element,
                          TypedAttr neutral) {
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  Value identity = arith::ConstantOp::create(rewriter, loc, neutral);
  return linalg::FillOp::create(rewriter, loc, identity, empty).getResult(0);
}

/// Combines the parts of `partial` into `init` (of `outType`) by a copy of
/// `combiner`, in a generic of `maps` (partial's, then init's) and
/// `iterators`.
Value combineParts(RewriterBase &rewriter, Location loc, Value partial,
                   Value init, Operation *combiner, ArrayRef<AffineMap> maps,
                   ArrayRef<utils::IteratorType> iterators) {
  auto combine = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{partial},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        IRMapping map;
        map.map(combiner->getOperand(0), args[0]);
        map.map(combiner->getOperand(1), args[1]);
        Operation *combined = b.clone(*combiner, map);
        linalg::YieldOp::create(b, loc, combined->getResult(0));
      });
  return combine.getResult(0);
}

/// Rewrites a reduction over several loops that cannot be collapsed into
/// one (an operand reads only some of them: a loss whose targets broadcast
/// along the rows, a bias read along the channels of a mean over channels
/// and pixels) into a partial reduction over the innermost reduction loops
/// that collapse into one, the other reduction loops made parallel and
/// written to a partial result filled with the combiner's neutral element,
/// and a combining reduction of those partials into the original output.
/// Each partial is then a row a warp reduces, where one thread would
/// otherwise sum them all (10^9 additions in f32, both slow and inexact).
/// Returns the partial reduction; fails when the partial result would have
/// more parallel loops than a plan maps to threads.
FailureOr<linalg::GenericOp> peelOuterReductionLoops(RewriterBase &rewriter,
                                                     linalg::GenericOp op) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  std::optional<Combiner> combiner = getCombiner(op);
  if (dims.size() < 2 || !combiner)
    return failure();
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  auto outType = cast<RankedTensorType>(init->get().getType());
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  // The partial result: the output's dimensions, then one per peeled loop.
  ArrayRef<unsigned> peeled =
      ArrayRef<unsigned>(dims).take_front(countLoopsToPeel(op, dims));
  if (op.getNumParallelLoops() + peeled.size() > kMaxMappedLoops)
    return failure();
  SmallVector<AffineExpr> partialResults(outMap.getResults());
  SmallVector<int64_t> partialShape(outType.getShape());
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d : peeled) {
    partialResults.push_back(rewriter.getAffineDimExpr(d));
    partialShape.push_back(bounds[d]);
    iterators[d] = utils::IteratorType::parallel;
  }
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto partialType =
      RankedTensorType::get(partialShape, outType.getElementType());
  Value filled = createNeutralTensor(
      rewriter, loc, partialShape, outType.getElementType(), combiner->neutral);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.back() = AffineMap::get(op.getNumLoops(), 0, partialResults,
                               op.getContext());
  auto partial = linalg::GenericOp::create(
      rewriter, loc, TypeRange{partialType}, op.getDpsInputs(),
      ValueRange{filled}, maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), partial.getRegion(),
                              partial.getRegion().begin());
  // out[o] = combine over the peeled loops of partial[o, p].
  int64_t outRank = outType.getRank();
  int64_t rank = outRank + peeled.size();
  SmallVector<AffineExpr> outDims;
  for (int64_t d = 0; d < outRank; ++d)
    outDims.push_back(rewriter.getAffineDimExpr(d));
  SmallVector<utils::IteratorType> combineIterators(
      outRank, utils::IteratorType::parallel);
  combineIterators.append(peeled.size(), utils::IteratorType::reduction);
  SmallVector<AffineMap> combineMaps = {
      rewriter.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, outDims, op.getContext())};
  Value combined =
      combineParts(rewriter, loc, partial.getResult(0), init->get(),
                   combiner->op, combineMaps, combineIterators);
  rewriter.replaceOp(op, combined);
  return partial;
}

/// Whether `op` reduces along its innermost loop and every operand that loop
/// indexes holds it contiguous: the warp plan's reduction (its lanes stride
/// along the rows, planWarpReduction).
bool reducesAlongRows(linalg::LinalgOp op) {
  return op.getNumLoops() > 0 &&
         op.getIteratorTypesArray().back() == utils::IteratorType::reduction &&
         isContiguousAlongInnermostLoop(op);
}

/// How many parts the reduction of `op` should be split into, or 1 when its
/// outputs times threads per output reach half of kTargetThreadsPerSM
/// threads per SM: enough parts to reach all of it, each part long enough to be
/// worth a thread (or a warp, when the reduction loops are the innermost ones:
/// the warp-reduction plan). Its reduction loops count as one (they are
/// collapsed before the split).
int64_t getSplitRatio(linalg::LinalgOp op, const TargetProfile &target) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (dims.empty() || llvm::any_of(bounds, ShapedType::isDynamic))
    return 1;
  int64_t outputs = 1, extent = 1;
  for (auto [i, bound] : llvm::enumerate(bounds))
    (llvm::is_contained(dims, i) ? extent : outputs) *= bound;
  // Otherwise each output gets a thread (a vector times a (k, n) matrix: a
  // column each). A (batched) matmul, which its own plans tile, counts by
  // its loop order alone.
  bool innermost = getNumBatchLoops(op) >= 0 ? dims.back() == bounds.size() - 1
                                             : reducesAlongRows(op);
  int64_t threadsPerOutput = innermost ? target.warpSize : 1;
  int64_t minPart = innermost ? kMinWarpPart : kMinSerialPart;
  int64_t threads = outputs * threadsPerOutput;
  int64_t targetThreads = target.numSMs * kTargetThreadsPerSM;
  // Half the target is enough to keep the memory system busy.
  if (2 * threads >= targetThreads)
    return 1;
  return chooseDividingPartCount(llvm::divideCeil(targetThreads, threads),
                                 extent, minPart);
}

/// Whether `op` is a plain reduction this pass may rewrite: one output with
/// one combiner, projected-permutation maps (constant 0 allowed: keepdim
/// outputs, broadcast operands), no index reads. Matmuls keep their own
/// plan, windows (convolutions, pooling) are not split.
bool isReductionCandidate(linalg::LinalgOp op) {
  Family family = classify(op);
  if (family != Family::Reduction && family != Family::Contraction)
    return false;
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.hasIndexSemantics())
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return false;
  SmallVector<Operation *> combiners;
  return matchReduction(op.getRegionOutputArgs(), 0, combiners) &&
         combiners.size() == 1;
}

/// Shortest part of K a split matmul leaves to each batch: 16 K steps of the
/// SIMT plan.
constexpr int64_t kMinMatmulPart = 256;
/// Output tile of the SIMT matmul plan, by which the planner counts blocks.
constexpr int64_t kMatmulTile = 64;
/// How many times longer than M and N a K must be to be split.
constexpr int64_t kMinLengthRatio = 8;

/// Splits K of a row-major f32 matmul (m, k) x (k, n) -> (m, n) whose 64 x 64
/// output tiles give fewer than half the SMs a block and whose K is at least
/// 8 times M and N (a long, thin product)
/// into S parts: S partial products as one batched matmul (A's parts copied
/// batch-first by a linalg.transpose, B's parts a reshape), then summed into
/// the output. Leaves `op` alone (failure) when it does not apply.
LogicalResult splitMatmulK(RewriterBase &rewriter, linalg::LinalgOp op,
                           const TargetProfile &target) {
  if (classify(op) != Family::Matmul || !op.hasPureTensorSemantics() ||
      op->getNumResults() != 1 || op.getNumDpsInputs() != 2)
    return failure();
  if (!hasRowMajorMatmulMaps(op) ||
      llvm::any_of(op->getOperandTypes(), [](Type type) {
        return !getElementTypeOrSelf(type).isF32();
      }))
    return failure();
  MLIRContext *ctx = op->getContext();
  AffineExpr dm, dn, dk;
  bindDims(ctx, dm, dn, dk);
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1 || !isa<arith::AddFOp>(combiners.front()))
    return failure();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic))
    return failure();
  int64_t m = bounds[0], n = bounds[1], k = bounds[2];
  int64_t tiles =
      llvm::divideCeil(m, kMatmulTile) * llvm::divideCeil(n, kMatmulTile);
  // Only long products: for a short K the split's extra kernels (and the
  // lost fusion of an elementwise consumer) cost more than the idle SMs.
  if (2 * tiles >= target.numSMs || k < kMinLengthRatio * std::max(m, n))
    return failure();
  int64_t parts = choosePartCount(llvm::divideCeil(target.numSMs, tiles), k,
                                  kMinMatmulPart);
  if (parts < 2)
    return failure();
  int64_t part = k / parts;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type f32 = rewriter.getF32Type();
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  // A (m, k) -> (m, S, k/S) -> (S, m, k/S), copied.
  Value aParts = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({m, parts, part}, f32), a,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value aEmpty = tensor::EmptyOp::create(rewriter, loc, {parts, m, part}, f32);
  Value aBatches = linalg::TransposeOp::create(rewriter, loc, aParts, aEmpty,
                                               ArrayRef<int64_t>{1, 0, 2})
                       ->getResult(0);
  // B (k, n) -> (S, k/S, n), a reshape.
  Value bBatches = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({parts, part, n}, f32), b,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  Value partialEmpty =
      tensor::EmptyOp::create(rewriter, loc, {parts, m, n}, f32);
  Value partialInit =
      linalg::FillOp::create(rewriter, loc, zero, partialEmpty).getResult(0);
  Value partials = linalg::BatchMatmulOp::create(
                       rewriter, loc, TypeRange{partialInit.getType()},
                       ValueRange{aBatches, bBatches}, ValueRange{partialInit})
                       ->getResult(0);
  // out(m, n) += the sum over s of partials(s, m, n).
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {dk, dm, dn}, ctx),
                                 AffineMap::get(3, 0, {dm, dn}, ctx)};
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel,
                                                utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};
  auto sum = linalg::GenericOp::create(
      rewriter, loc, TypeRange{c.getType()}, ValueRange{partials},
      ValueRange{c}, maps, iterators,
      [](OpBuilder &b, Location loc, ValueRange args) {
        Value added = arith::AddFOp::create(b, loc, args[1], args[0]);
        linalg::YieldOp::create(b, loc, added);
      });
  rewriter.replaceOp(op, sum->getResults());
  return success();
}

/// Shortest part of a split convolution's reduction: products per output.
constexpr int64_t kMinConvolutionPart = 64;
/// Shortest convolution reduction (products per output) that is split.
constexpr int64_t kMinConvolutionSplit = 256;

/// The channel loop of convolution `op`: its outermost reduction loop that
/// the window input and the weights both read as a whole index of their own
/// (`c` of `x[n, c, h + kh, w + kw]` and `w[f, c, kh, kw]`), and no operand
/// reads inside another index.
std::optional<unsigned> getChannelLoop(linalg::LinalgOp op) {
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  for (unsigned d : dims) {
    int64_t readers = 0;
    bool plain = true;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (AffineExpr expr : map.getResults()) {
        if (!expr.isFunctionOfDim(d))
          continue;
        auto dim = dyn_cast<AffineDimExpr>(expr);
        plain &= dim && dim.getPosition() == d;
        ++readers;
      }
    }
    if (plain && readers >= 2)
      return d;
  }
  return std::nullopt;
}

/// How many parts the channels of convolution `op` (its channel loop
/// `channel`) are split into: 1 unless its outputs, in the largest boxes the
/// planner gives a thread (getConvolutionBox, kMaxBoxFilters filters by
/// kMaxBoxPixels pixels), leave fewer than kMinBoxThreadsPerSM threads per SM
/// and each output sums kMinConvolutionSplit products or more; else enough
/// parts to reach them, each part kMinConvolutionPart products or more.
int64_t getChannelParts(linalg::LinalgOp op, unsigned channel,
                        const TargetProfile &target) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic))
    return 1;
  int64_t outputs = 1, products = 1;
  for (auto [bound, iterator] : llvm::zip(bounds, op.getIteratorTypesArray()))
    (iterator == utils::IteratorType::parallel ? outputs : products) *= bound;
  if (products < kMinConvolutionSplit)
    return 1;
  // The threads of the planner's largest boxes (the split's part loop is
  // outermost, so the split op has the same thread loops); the box rule's
  // threads per SM, which the planner keeps its boxes above.
  int64_t box = 1;
  for (int64_t count :
       getConvolutionBox(op, bounds, getThreadLoops(op), /*numSMs=*/0))
    box *= count;
  int64_t threads = outputs / box;
  int64_t targetThreads = target.numSMs * kMinBoxThreadsPerSM;
  if (threads >= targetThreads)
    return 1;
  int64_t window = products / bounds[channel];
  return chooseDividingPartCount(llvm::divideCeil(targetThreads, threads),
                                 bounds[channel],
                                 llvm::divideCeil(kMinConvolutionPart, window));
}

/// Splits the channels of a convolution whose outputs are too few to fill
/// the GPU (getChannelParts) into S parts: the window input and the weights
/// are reshaped (C into S x C/S), a convolution with an outer parallel loop
/// over the parts writes S partial outputs (filled with the combiner's
/// neutral element), and an outer reduction over the parts combines them
/// into the original output (its initial value, a zero or a bias, kept).
/// Leaves `op` alone (failure) when it does not apply: named convolutions
/// are generalized first; padded ones read through tensor.extract, index
/// reads, several outputs or combiners, dynamic sizes are left alone.
LogicalResult splitConvolutionChannels(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       const TargetProfile &target) {
  if (classify(op) != Family::Convolution || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.hasIndexSemantics())
    return failure();
  std::optional<Combiner> combiner = getCombiner(op);
  if (!combiner)
    return failure();
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<RankedTensorType>(init->get().getType());
  // A long f16 or bf16 sum in another order differs from the sum in order
  // by more than the verifier allows (8 parts of 108 products: 0.42 where
  // 0.10 is allowed, on an H100): only f32, f64 and integer sums split.
  Type element = outType ? outType.getElementType() : Type();
  if (auto floating = dyn_cast_or_null<FloatType>(element);
      floating && floating.getWidth() < 32)
    return failure();
  if (!outType || !outType.hasStaticShape() ||
      !op.getMatchingIndexingMap(init).isProjectedPermutation())
    return failure();
  std::optional<unsigned> channel = getChannelLoop(op);
  int64_t parts = channel ? getChannelParts(op, *channel, target) : int64_t(1);
  if (parts < 2)
    return failure();
  // A named convolution is generalized only once it splits.
  rewriter.setInsertionPoint(op);
  bool generalized;
  FailureOr<linalg::GenericOp> generic =
      getOrGeneralize(rewriter, op, generalized);
  if (failed(generic))
    return failure();
  // The named op is gone: its operands and body are the generic's now.
  init = generic->getDpsInitOperand(0);
  combiner = getCombiner(*generic);
  if (!combiner)
    return failure();

  MLIRContext *ctx = generic->getContext();
  Location loc = generic->getLoc();
  unsigned loops = generic->getNumLoops();
  SmallVector<int64_t> bounds = generic->getStaticLoopRanges();
  int64_t partChannels = bounds[*channel] / parts;
  AffineExpr part = rewriter.getAffineDimExpr(0);
  // The old loops become loops 1..n, after the new outer part loop.
  auto shift = [&](AffineExpr expr) { return expr.shiftDims(loops, 1); };
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : generic->getDpsInputOperands()) {
    AffineMap map = generic->getMatchingIndexingMap(input);
    SmallVector<AffineExpr> results;
    Value value = input->get();
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(*channel)) {
        results.push_back(shift(expr));
        continue;
      }
      // Its channels in parts: (C) -> (S, C / S), read at (s, c).
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[i] = partChannels;
      shape.insert(shape.begin() + i, parts);
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        ReassociationIndices group{d + (d > int64_t(i) ? 1 : 0)};
        if (d == int64_t(i))
          group.push_back(d + 1);
        groups.push_back(group);
      }
      // Later results of this operand index the reshaped value one further.
      value = tensor::ExpandShapeOp::create(rewriter, loc, type.clone(shape),
                                            value, groups);
      results.push_back(part);
      results.push_back(shift(expr));
    }
    inputs.push_back(value);
    maps.push_back(AffineMap::get(loops + 1, 0, results, ctx));
  }
  // The partial outputs: (S, output...), each filled with the neutral value.
  AffineMap outMap = generic->getMatchingIndexingMap(init);
  SmallVector<AffineExpr> partialResults{part};
  for (AffineExpr expr : outMap.getResults())
    partialResults.push_back(shift(expr));
  maps.push_back(AffineMap::get(loops + 1, 0, partialResults, ctx));
  SmallVector<int64_t> partialShape{parts};
  llvm::append_range(partialShape, outType.getShape());
  Value filled = createNeutralTensor(rewriter, loc, partialShape, element,
                                     combiner->neutral);
  SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
  llvm::append_range(iterators, generic->getIteratorTypesArray());
  linalg::GenericOp partial =
      rebuildGeneric(rewriter, *generic, TypeRange{filled.getType()}, inputs,
                     ValueRange{filled}, maps, ArrayRef(iterators));
  // out[o] = combine over s of partial[s, o], onto its initial value: the
  // part loop outermost, so each thread reduces its outputs serially.
  int64_t rank = outType.getRank();
  SmallVector<utils::IteratorType> combineIterators(
      rank + 1, utils::IteratorType::parallel);
  combineIterators.front() = utils::IteratorType::reduction;
  SmallVector<AffineMap> combineMaps = {
      rewriter.getMultiDimIdentityMap(rank + 1),
      rewriter.getMultiDimIdentityMap(rank + 1).dropResult(0)};
  Value combined =
      combineParts(rewriter, loc, partial.getResult(0), init->get(),
                   combiner->op, combineMaps, combineIterators);
  rewriter.replaceOp(*generic, combined);
  return success();
}

class QiMengSplitReductionsPass
    : public impl::QiMengSplitReductionsPassBase<QiMengSplitReductionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetProfile> profile =
        lookupTargetProfile(target, getOperation());
    if (!profile)
      return signalPassFailure();
    // Reductions of a row-wise kernel the planner runs as one (RowGroups.h)
    // are left whole.
    llvm::SmallPtrSet<Operation *, 8> inRowKernels;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      SmallVector<linalg::LinalgOp> roots;
      func.walk([&](linalg::LinalgOp op) { roots.push_back(op); });
      llvm::SmallPtrSet<Operation *, 1> none;
      for (const RowGroup &group : findRowGroups(
               roots,
               [](linalg::LinalgOp op) {
                 return getWarpReductionKind(op).has_value();
               },
               none))
        if (isWorthOneKernel(group, *profile))
          for (linalg::LinalgOp op : group.ops)
            inRowKernels.insert(op);
    }
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isReductionCandidate(op) && !inRowKernels.contains(op))
        candidates.push_back(op);
    });
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (classify(op) == Family::Matmul)
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates)
      split(rewriter, op, *profile);
    for (linalg::LinalgOp op : matmuls)
      (void)splitMatmulK(rewriter, op, *profile);
    SmallVector<linalg::LinalgOp> convolutions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (classify(op) == Family::Convolution)
        convolutions.push_back(op);
    });
    for (linalg::LinalgOp op : convolutions)
      (void)splitConvolutionChannels(rewriter, op, *profile);
    moveFillsPastCollapses(rewriter);
  }

private:
  /// Dropping a keepdim output's unit dimension collapses its fill's
  /// result: each fill whose only use is a collapse_shape fills the
  /// collapsed tensor instead (its attributes kept), so that the plan can
  /// fuse it into the reduction it starts.
  void moveFillsPastCollapses(RewriterBase &rewriter) {
    SmallVector<tensor::CollapseShapeOp> collapses;
    getOperation().walk([&](tensor::CollapseShapeOp collapse) {
      auto fill = collapse.getSrc().getDefiningOp<linalg::FillOp>();
      if (fill && fill->hasOneUse() && fill.hasPureTensorSemantics())
        collapses.push_back(collapse);
    });
    for (tensor::CollapseShapeOp collapse : collapses) {
      auto fill = collapse.getSrc().getDefiningOp<linalg::FillOp>();
      rewriter.setInsertionPoint(collapse);
      Value init = tensor::CollapseShapeOp::create(
          rewriter, collapse.getLoc(), collapse.getResultType(),
          fill.getOutputs()[0], collapse.getReassociationIndices());
      auto moved = linalg::FillOp::create(rewriter, fill.getLoc(),
                                          fill.getInputs()[0], init);
      moved->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
      rewriter.replaceOp(collapse, moved.getResult(0));
      rewriter.eraseOp(fill);
    }
  }

  /// Splits `op` when that helps. A reduction over several loops is
  /// brought to one reduction loop even when it is not split: the warp and
  /// block plans reduce along one loop, the others would give each output a
  /// thread that sums it alone (an instance norm's 512 x 512 pixels).
  void split(RewriterBase &rewriter, linalg::LinalgOp op,
             const TargetProfile &profile) {
    // Decided on the op as it is: the rewrites below only change its form.
    int64_t ratio = getSplitRatio(op, profile);
    SmallVector<unsigned> dims;
    op.getReductionDims(dims);
    if (ratio <= 1 && dims.size() < 2)
      return;
    // A reduction along the innermost loop that its operands do not hold
    // contiguous (a vector times a (k, n) matrix) gets a thread per output,
    // reading along the parallel loops: with the reduction loop outermost it
    // splits as a column sum does, its parts' threads along the rows.
    unsigned last = op.getNumLoops() - 1;
    if (ratio > 1 && dims.size() == 1 && dims.front() == last &&
        getNumBatchLoops(op) < 0 && !reducesAlongRows(op)) {
      rewriter.setInsertionPoint(op);
      bool generalized;
      FailureOr<linalg::GenericOp> generic =
          getOrGeneralize(rewriter, op, generalized);
      SmallVector<unsigned> order{last};
      for (unsigned d = 0; d < last; ++d)
        order.push_back(d);
      if (succeeded(generic)) {
        FailureOr<linalg::GenericOp> interchanged =
            linalg::interchangeGenericOp(rewriter, *generic, order);
        if (succeeded(interchanged))
          op = *interchanged;
        else
          op = *generic;
      }
      dims.clear();
      op.getReductionDims(dims);
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      generic = dropUnitDimensions(rewriter, generic);
      FailureOr<linalg::LinalgOp> collapsed =
          collapseReductionLoops(rewriter, generic);
      if (failed(collapsed)) {
        if (ratio <= 1)
          return;
        // The partial reduction's inner loops, which collapse by design.
        if (FailureOr<linalg::GenericOp> partial =
                peelOuterReductionLoops(rewriter, generic);
            succeeded(partial))
          (void)collapseReductionLoops(rewriter, *partial);
        return;
      }
      op = *collapsed;
    }
    if (ratio <= 1)
      return;
    if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0))
             .isProjectedPermutation())
      return;
    dims.clear();
    op.getReductionDims(dims);
    if (dims.size() != 1)
      return;
    linalg::ControlSplitReductionFn control = [&](linalg::LinalgOp) {
      return linalg::SplitReductionOptions{ratio, dims.front(),
                                           /*innerParallel=*/false};
    };
    (void)linalg::splitReduction(rewriter, op, control);
  }
};

} // namespace
} // namespace mlir::qimeng
