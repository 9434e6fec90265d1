//===- Prepare.cpp - Bring kernels into the planner's form ----------------===//

#include "QiMeng/Planner/OpFamily.h"
#include "QiMeng/Transforms/Linalg/Passes.h"

#include "ConstantInputs.h"
#include "ConvertTensor.h"
#include "DeadResults.h"
#include "Gathers.h"
#include "Im2Col.h"
#include "KernelAsserts.h"
#include "QiMeng/Transforms/Linalg/Generalize.h"
#include "ReshapedProducts.h"
#include "ScalarOutputs.h"
#include "SharedInits.h"
#include "TransposedConv.h"
#include "WgmmaSplitK.h"
#include "Windows.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGPREPAREPASS
#include "QiMeng/Transforms/Linalg/Passes.h.inc"

namespace {

/// Decomposes an aggregate op (linalg.softmax) into its linalg generics.
struct DecomposeAggregate
    : public OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return rewriter.notifyMatchFailure(op, "cannot be decomposed");
    rewriter.replaceOp(op, *values);
    return success();
  }
};

/// Whether `op` is a named linalg op that computes elementwise (not a
/// generic, not a fill): linalg.elementwise, map, broadcast, transpose,
/// copy, linalg.add, ...
static bool isNamedElementwise(linalg::LinalgOp op) {
  return !isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()) &&
         linalg::isElementwise(op);
}

/// Turns a named elementwise op on tensors (linalg.elementwise, map,
/// broadcast, transpose, copy, linalg.add, ...: StableHLO's and newer
/// frontends' forms) into a generic, so that it fuses with its elementwise
/// neighbours like the generics torch-mlir writes (a map, a broadcast and a
/// transpose otherwise stay three kernels). A transpose read by an op with
/// reduction loops is kept: the matmul and matrix-vector patterns read
/// through it without a copy.
struct GeneralizeElementwise
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isNamedElementwise(op) || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not a named elementwise op");
    // Only beside an elementwise neighbour it could fuse with: a lone named
    // op stays as it is (the planner takes it either way).
    auto isElementwiseLinalg = [](Operation *other) {
      auto linalgOther = dyn_cast_if_present<linalg::LinalgOp>(other);
      return linalgOther && !isa<linalg::FillOp>(other) &&
             linalgOther.hasPureTensorSemantics() &&
             linalgOther.getNumReductionLoops() == 0;
    };
    bool readByElementwise = llvm::any_of(op->getUses(), [&](OpOperand &use) {
      auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
      return isElementwiseLinalg(use.getOwner()) && user.isDpsInput(&use);
    });
    bool readsElementwise = llvm::any_of(op.getDpsInputs(), [&](Value input) {
      return isElementwiseLinalg(input.getDefiningOp());
    });
    if (!readByElementwise && !readsElementwise)
      return rewriter.notifyMatchFailure(op, "no elementwise neighbour");
    if (isa<linalg::TransposeOp>(op.getOperation()) &&
        llvm::any_of(op->getUsers(), [](Operation *user) {
          auto linalgUser = dyn_cast<linalg::LinalgOp>(user);
          return linalgUser && linalgUser.getNumReductionLoops() != 0;
        }))
      return rewriter.notifyMatchFailure(op, "a reduction reads through it");
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    return success();
  }
};

/// Reads an input of a generic through a tensor.expand_shape or
/// tensor.collapse_shape that only adds or drops unit dimensions (a keepdim
/// reduction's (rows) result expanded to (rows, 1), as torch-mlir writes a
/// softmax's maximum): the generic reads the reshape's source instead, its
/// map without the unit dimensions (an in-bounds index into one is 0) or
/// with 0 for them. A reshape between two ops would keep them in separate
/// kernels (the micro-coder fuses along buffers, not through views). Not
/// for contractions: see ContractionUnitLoops.
struct ReadThroughUnitReshape : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  /// For each reassociation group of `expanded` (the shape with more
  /// dimensions), the one dimension that is not a static 1 (the first when
  /// all are), or failure when two are not.
  static FailureOr<SmallVector<int64_t>>
  getKeptDims(ArrayRef<ReassociationIndices> groups,
              ArrayRef<int64_t> expanded) {
    // A scalar reshaped to a unit tensor (ScalarOutputs' form) stays.
    if (groups.empty())
      return failure();
    SmallVector<int64_t> kept;
    for (const ReassociationIndices &group : groups) {
      std::optional<int64_t> keep;
      for (int64_t d : group) {
        if (expanded[d] == 1)
          continue;
        if (keep)
          return failure();
        keep = d;
      }
      kept.push_back(keep.value_or(group.front()));
    }
    return kept;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // A contraction's unit loops are dropped on purpose, through reshapes
    // of its operands (ContractionUnitLoops).
    if (linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "a contraction");
    // Only for elementwise readers: a reduction over the unit dimension a
    // keepdim chain expands back (torch's sum of a (rows, 1) tensor along
    // its 1) keeps it, and with it the loop that dimension sizes.
    if (op.getNumReductionLoops() != 0)
      return rewriter.notifyMatchFailure(op, "a reduction");
    MLIRContext *ctx = op.getContext();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Operation *reshape = input->get().getDefiningOp();
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<AffineExpr> results;
      Value source;
      if (auto expand = dyn_cast_if_present<tensor::ExpandShapeOp>(reshape)) {
        FailureOr<SmallVector<int64_t>> kept =
            getKeptDims(expand.getReassociationIndices(),
                        expand.getResultType().getShape());
        if (failed(kept))
          continue;
        for (int64_t d : *kept)
          results.push_back(map.getResult(d));
        source = expand.getSrc();
      } else if (auto collapse =
                     dyn_cast_if_present<tensor::CollapseShapeOp>(reshape)) {
        SmallVector<ReassociationIndices> groups =
            collapse.getReassociationIndices();
        FailureOr<SmallVector<int64_t>> kept =
            getKeptDims(groups, collapse.getSrcType().getShape());
        if (failed(kept))
          continue;
        for (auto [group, keep] : llvm::zip_equal(groups, *kept))
          for (int64_t d : group)
            results.push_back(d == keep ? map.getResult(&group - groups.data())
                                        : getAffineConstantExpr(0, ctx));
        source = collapse.getSrc();
      } else {
        continue;
      }
      // A value a reduction over unit loops made (torch's keepdim chains:
      // a sum along a dimension of one, then a max along it) is a copy;
      // its chain keeps the reshapes (row groups of one-element rows
      // across them are not fused correctly).
      if (auto producer = source.getDefiningOp<linalg::LinalgOp>()) {
        SmallVector<int64_t> ranges = producer.getStaticLoopRanges();
        bool unitReduction = false;
        for (auto [range, iterator] :
             llvm::zip_equal(ranges, producer.getIteratorTypesArray()))
          unitReduction |=
              iterator == utils::IteratorType::reduction && range == 1;
        if (unitReduction)
          continue;
      }
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, ctx);
      // Every loop must still take its size from an operand (a unit loop
      // only the dropped dimension indexed would have none).
      if (!llvm::all_of(llvm::seq<unsigned>(0, map.getNumDims()),
                        [&](unsigned d) {
                          return llvm::any_of(maps, [&](AffineMap m) {
                            return m.isFunctionOfDim(d);
                          });
                        }))
        continue;
      rewriter.modifyOpInPlace(op, [&] {
        input->set(source);
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no input through a unit reshape");
  }
};

/// Reads the elements a gather takes from a linalg.transpose (tensor.extract
/// of its result, in a pad or another generic of qimeng-prepare) from the
/// transpose's input at the permuted indices, when nothing else reads the
/// transpose: the transposed copy, a pass over the whole tensor, is gone
/// (a Linear's f32 weight, transposed by torch-mlir and then padded to the
/// matmul's tiles, was copied twice).
struct ExtractThroughTranspose : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!transpose.hasPureTensorSemantics() || transpose->use_empty() ||
        llvm::any_of(transpose->getUsers(), [](Operation *user) {
          return !isa<tensor::ExtractOp>(user);
        }))
      return rewriter.notifyMatchFailure(transpose, "not read by extracts");
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    Value input = transpose.getInput();
    for (Operation *user : llvm::to_vector(transpose->getUsers())) {
      auto extract = cast<tensor::ExtractOp>(user);
      // Result dimension i is input dimension permutation[i].
      SmallVector<Value> indices(permutation.size());
      for (auto [i, index] : llvm::enumerate(extract.getIndices()))
        indices[permutation[i]] = index;
      rewriter.setInsertionPoint(extract);
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(extract, input, indices);
    }
    rewriter.eraseOp(transpose);
    return success();
  }
};

/// Collapses the trailing static loops of a stand-alone elementwise generic
/// into one when every operand holds them contiguous, in order, at its end
/// (upstream linalg::collapseOpIterationDims) and its last loop alone is too
/// short for a warp of 128-bit vectors, or no multiple of them: a cast over
/// 3000 x 1023 runs over 3069000 elements in 128-bit vectors (scalars
/// before); a SiLU over (?, 509, 7, 16) over rows of 57008, not blocks of
/// 2 x 8 x 16 that leave an eighth of their threads idle along 7. Only for an
/// op that reads nothing a linalg op computes and whose results only go back to
/// the caller: the reshapes it adds would otherwise stand between it and the
/// ops it fuses with.
struct CollapseElementwiseLoops
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    // A generic, or a named elementwise op (linalg.elementwise, map, ...:
    // generalized once it is known to collapse).
    if (!isa<linalg::GenericOp>(op.getOperation()) && !isNamedElementwise(op))
      return rewriter.notifyMatchFailure(op, "not an elementwise op");
    unsigned loops = op.getNumLoops();
    if (loops < 2 || op.getNumReductionLoops() != 0 ||
        !op.hasPureTensorSemantics() || op.hasIndexSemantics())
      return rewriter.notifyMatchFailure(op, "not a plain elementwise op");
    // Its operands are the kernel's arguments, empty tensors or constants
    // (an aggregate such as linalg.softmax, a linalg op in all but name,
    // makes its input too).
    if (llvm::any_of(op->getOperands(),
                     [](Value v) {
                       Operation *def = v.getDefiningOp();
                       return def && !isa<tensor::EmptyOp>(def) &&
                              !matchPattern(v, m_Constant());
                     }) ||
        llvm::any_of(op->getUsers(), [](Operation *user) {
          return !isa<func::ReturnOp>(user);
        }))
      return rewriter.notifyMatchFailure(op, "not a stand-alone op");
    // Gathers (tensor.extract in the body) index their sources themselves.
    if (!op.getBlock()->getOps<tensor::ExtractOp>().empty())
      return rewriter.notifyMatchFailure(op, "a gather");
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    // Only where the innermost loop alone gives no 128-bit vectors to a warp
    // (too short, or not a multiple of the vector): other ops keep their
    // loops (and their tuned plans).
    int64_t widest = 8;
    for (Type type : op->getOperandTypes())
      if (Type element = getElementTypeOrSelf(type); element.isIntOrFloat())
        widest = std::max<int64_t>(widest, element.getIntOrFloatBitWidth());
    int64_t lanes = 128 / std::min<int64_t>(widest, 128);
    int64_t inner = bounds.back();
    if (ShapedType::isDynamic(inner) ||
        (inner % lanes == 0 && inner / lanes >= 32))
      return rewriter.notifyMatchFailure(op, "vectors along the last loop");
    unsigned first = loops;
    while (first > 0 && !ShapedType::isDynamic(bounds[first - 1]))
      --first;
    // The longest static suffix every operand holds in order at its end.
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (; first + 1 < loops; ++first) {
      ReassociationIndices suffix =
          llvm::to_vector(llvm::seq<int64_t>(first, loops));
      if (linalg::areDimSequencesPreserved(maps, suffix) &&
          llvm::all_of(maps, [&](AffineMap map) {
            return map.getNumResults() >= suffix.size() &&
                   map.getResults().take_back(suffix.size()) ==
                       ArrayRef(llvm::map_to_vector(suffix, [&](int64_t d) {
                         return getAffineDimExpr(d, op.getContext());
                       }));
          }))
        break;
    }
    if (first + 1 >= loops)
      return rewriter.notifyMatchFailure(op, "nothing to collapse");
    // The planner maps loops of up to 2^31 iterations.
    int64_t collapsedSize = 1;
    for (unsigned d = first; d < loops && collapsedSize < (int64_t(1) << 31);
         ++d)
      collapsedSize *= bounds[d];
    if (collapsedSize >= (int64_t(1) << 31))
      return rewriter.notifyMatchFailure(op, "the collapsed loop is too long");
    SmallVector<ReassociationIndices> groups;
    for (unsigned d = 0; d < first; ++d)
      groups.push_back({d});
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(first, loops)));
    bool generalized;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, op, generalized);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "cannot generalize");
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(*generic, groups, rewriter);
    if (failed(collapsed))
      return generalized ? success()
                         : rewriter.notifyMatchFailure(op, "cannot collapse");
    rewriter.replaceOp(*generic, collapsed->results);
    return success();
  }
};

/// The last index of `source` along dimension `d` (its size minus one).
Value getLastIndex(OpBuilder &b, Location loc, Value source, int64_t d) {
  return arith::SubIOp::create(
      b, loc,
      getValueOrCreateConstantIndexOp(b, loc,
                                      tensor::getMixedSize(b, loc, source, d)),
      arith::ConstantIndexOp::create(b, loc, 1));
}

/// Rewrites `tensor.pad` with static low padding and a constant padding value
/// into a linalg.generic: out[i] = in-bounds(i - low) ? src[clamp(i - low)] :
/// pad. Reads use clamped indices so they are always in bounds; dimensions
/// without padding are read as they are. Sizes may be
/// dynamic (a batch whose size the caller gives).
struct PadToGeneric : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = pad.getResultType();
    RankedTensorType sourceType = pad.getSourceType();
    if (sourceType.getRank() == 0 ||
        llvm::is_contained(sourceType.getShape(), 0))
      return rewriter.notifyMatchFailure(pad, "rank-0 or empty source");
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue)
      return rewriter.notifyMatchFailure(pad, "non-constant padding value");
    SmallVector<int64_t> low;
    for (OpFoldResult l : pad.getMixedLowPad()) {
      std::optional<int64_t> c = getConstantIntValue(l);
      if (!c)
        return rewriter.notifyMatchFailure(pad, "dynamic low padding");
      low.push_back(*c);
    }

    Location loc = pad.getLoc();
    int64_t rank = resultType.getRank();
    ReifiedRankedShapedTypeDims resultSizes;
    if (failed(reifyResultShapes(rewriter, pad, resultSizes)))
      return rewriter.notifyMatchFailure(pad, "result sizes not computable");
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultSizes.front(),
                                          resultType.getElementType());
    Value source = pad.getSource();
    SmallVector<Value> lastIndex;
    for (int64_t d = 0; d < rank; ++d)
      lastIndex.push_back(getLastIndex(rewriter, loc, source, d));
    auto generic = buildGather(
        rewriter, loc, resultType, empty,
        [&](OpBuilder &b, Location loc, ValueRange at, Value) -> Value {
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          Value inBounds;
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            // A dimension without padding is read as it is.
            if (low[d] == 0 &&
                isConstantIntValue(pad.getMixedHighPad()[d], 0)) {
              indices.push_back(at[d]);
              continue;
            }
            Value lowD = arith::ConstantIndexOp::create(b, loc, low[d]);
            Value last = lastIndex[d];
            Value src = arith::SubIOp::create(b, loc, at[d], lowD);
            Value geZero = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, src, zero);
            Value leLast = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sle, src, last);
            Value ok = arith::AndIOp::create(b, loc, geZero, leLast);
            inBounds =
                inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
            indices.push_back(clampIndex(b, loc, src, last));
          }
          Value value = tensor::ExtractOp::create(b, loc, source, indices);
          return inBounds ? arith::SelectOp::create(b, loc, inBounds, value,
                                                    padValue)
                                .getResult()
                          : value;
        });
    rewriter.replaceOp(pad, generic.getResult(0));
    return success();
  }
};

/// A function that returns a slice of a tensor (`tensor.extract_slice`
/// feeding `func.return`) returns a copy of it made by `linalg.copy` into a
/// fresh tensor: a kernel the planner maps, the result a buffer of its own.
/// Otherwise bufferization copies the strided view on the host (a call of
/// `memrefCopy` on device memory).
struct CopyReturnedSlice : public OpRewritePattern<func::ReturnOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(func::ReturnOp ret,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    for (OpOperand &operand : ret->getOpOperands()) {
      auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || slice.getType().getRank() == 0)
        continue;
      Location loc = slice.getLoc();
      rewriter.setInsertionPoint(ret);
      Value empty = tensor::EmptyOp::create(
          rewriter, loc,
          tensor::getMixedSizes(rewriter, loc, slice.getResult()),
          slice.getType().getElementType());
      Value copy =
          linalg::CopyOp::create(rewriter, loc, slice.getResult(), empty)
              ->getResult(0);
      rewriter.modifyOpInPlace(ret, [&] { operand.set(copy); });
      changed = true;
    }
    return success(changed);
  }
};

/// Rewrites a `tensor.insert_slice` at a function's top level with static
/// offsets and strides into a linalg.generic over the destination:
/// out[i] = i on the slice's lattice ? src[(i - offset) / stride] : dest[i],
/// dest[i] being the fill value when a linalg.fill makes the destination
/// (torch-mlir's transposed convolutions spread their input into a zero
/// tensor this way). Bufferized as it is, the insert would become a
/// memref.copy into a strided view: a call on the host, which cannot reach
/// device buffers. Source reads use clamped indices, so they stay in bounds;
/// dimensions the slice drops are matched at their offset.
struct InsertSliceToGeneric : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    if (!isa<func::FuncOp>(insert->getParentOp()))
      return rewriter.notifyMatchFailure(insert, "not at a function's top");
    RankedTensorType destType = insert.getDestType();
    int64_t rank = destType.getRank();
    if (rank == 0)
      return rewriter.notifyMatchFailure(insert, "rank-0 destination");
    SmallVector<int64_t> offsets, strides;
    for (auto [offset, stride] :
         llvm::zip(insert.getMixedOffsets(), insert.getMixedStrides())) {
      std::optional<int64_t> o = getConstantIntValue(offset);
      std::optional<int64_t> s = getConstantIntValue(stride);
      if (!o || !s || *s <= 0)
        return rewriter.notifyMatchFailure(insert, "dynamic offset or stride");
      offsets.push_back(*o);
      strides.push_back(*s);
    }
    llvm::SmallBitVector dropped = insert.getDroppedDims();

    Location loc = insert.getLoc();
    Value source = insert.getSource();
    // Into a fill's destination, the fill's value stands for the rest.
    Value init = insert.getDest();
    Value fillValue;
    DenseElementsAttr constant;
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      fillValue = fill.value();
      init = fill.getDpsInits().front();
    } else if (matchPattern(init, m_Constant(&constant)) &&
               constant.isSplat()) {
      // A splat constant (torch's zeros) likewise, without its buffer.
      fillValue = arith::ConstantOp::create(
          rewriter, loc, constant.getSplatValue<TypedAttr>());
      init = tensor::EmptyOp::create(rewriter, loc, destType.getShape(),
                                     destType.getElementType());
    }
    SmallVector<Value> lastIndex;
    for (int64_t d = 0, e = insert.getSourceType().getRank(); d < e; ++d)
      lastIndex.push_back(getLastIndex(rewriter, loc, source, d));
    auto generic = buildGather(
        rewriter, loc, destType, init,
        [&](OpBuilder &b, Location loc, ValueRange at, Value out) -> Value {
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          Value onSlice;
          auto both = [&](Value ok) {
            onSlice = onSlice ? arith::AndIOp::create(b, loc, onSlice, ok) : ok;
          };
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            Value from = arith::SubIOp::create(
                b, loc, at[d],
                arith::ConstantIndexOp::create(b, loc, offsets[d]));
            if (dropped.test(d)) {
              both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, from,
                                         zero));
              continue;
            }
            both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, from,
                                       zero));
            Value clamped = arith::MaxSIOp::create(b, loc, from, zero);
            if (strides[d] != 1) {
              Value stride = arith::ConstantIndexOp::create(b, loc, strides[d]);
              both(arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq,
                  arith::RemUIOp::create(b, loc, clamped, stride), zero));
              clamped = arith::DivUIOp::create(b, loc, clamped, stride);
            }
            Value last = lastIndex[indices.size()];
            both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                       clamped, last));
            indices.push_back(arith::MinSIOp::create(b, loc, clamped, last));
          }
          Value value = tensor::ExtractOp::create(b, loc, source, indices);
          return arith::SelectOp::create(b, loc, onSlice, value,
                                         fillValue ? fillValue : out);
        });
    rewriter.replaceOp(insert, generic.getResult(0));
    return success();
  }
};

/// Rewrites `tensor.concat` into one linalg.generic over the result: along
/// the concatenated dimension, each index reads the input whose range holds
/// it (a chain of selects over reads at clamped indices, so every read stays
/// in bounds). Decomposed upstream's way, into inserts, it would become
/// copies into views (see InsertSliceToGeneric).
struct ConcatToGeneric : public OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = concat.getResultType();
    int64_t dim = concat.getDim();
    Location loc = concat.getLoc();
    ReifiedRankedShapedTypeDims resultSizes;
    if (failed(reifyResultShapes(rewriter, concat, resultSizes)))
      return rewriter.notifyMatchFailure(concat, "result sizes not computable");
    // Where each input starts along `dim`, and its last index there.
    SmallVector<Value> starts, lasts;
    Value start = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (Value input : concat.getInputs()) {
      starts.push_back(start);
      lasts.push_back(getLastIndex(rewriter, loc, input, dim));
      start = arith::AddIOp::create(
          rewriter, loc, start,
          getValueOrCreateConstantIndexOp(
              rewriter, loc, tensor::getMixedSize(rewriter, loc, input, dim)));
    }
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultSizes.front(),
                                          resultType.getElementType());
    auto generic = buildGather(
        rewriter, loc, resultType, empty,
        [&](OpBuilder &b, Location loc, ValueRange at, Value) -> Value {
          SmallVector<Value> indices(at);
          Value result;
          // The last input first: each earlier one takes over below its end.
          for (int64_t k = concat.getInputs().size() - 1; k >= 0; --k) {
            Value from = arith::SubIOp::create(b, loc, at[dim], starts[k]);
            indices[dim] = clampIndex(b, loc, from, lasts[k]);
            Value value = tensor::ExtractOp::create(
                b, loc, concat.getInputs()[k], indices);
            if (!result) {
              result = value;
              continue;
            }
            Value below = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sle, from, lasts[k]);
            result = arith::SelectOp::create(b, loc, below, value, result);
          }
          return result;
        });
    rewriter.replaceOp(concat, generic.getResult(0));
    return success();
  }
};

/// Whether an elementwise producer may be fused into each of its users: it
/// has one, or a few (up to 3) that are all generics it can be fused into,
/// so it is recomputed in each instead of written out whole and read back
/// (a softmax's exp(x - max), which the sum and the division both read).
/// Not a gather from several tensors (a transposed convolution's phases,
/// a concatenation): each element would read all of them in each user.
static bool isFusableEverywhere(Operation *producer) {
  if (producer->hasOneUse())
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic || generic.getNumReductionLoops() != 0 ||
      producer->getNumResults() != 1)
    return false;
  auto gathers = generic.getBody()->getOps<tensor::ExtractOp>();
  if (std::distance(gathers.begin(), gathers.end()) > 1)
    return false;
  unsigned uses = 0;
  for (OpOperand &use : producer->getResult(0).getUses()) {
    auto user = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!user || ++uses > 3 || !linalg::areElementwiseOpsFusable(&use))
      return false;
    Family family = classify(user);
    if (family == Family::Matmul || family == Family::Contraction)
      return false;
  }
  return true;
}

/// Rewrites `op` (an elementwise generic on tensors) so that it reads the
/// inits its body uses as inputs and writes fresh tensors: `outs(%mm)` that
/// adds a bias to %mm in place becomes `ins(%mm) outs(tensor.empty)`. Fused
/// into its users, an op in place would stay a second output of each (its
/// init is its value), writing the whole tensor again; read as an input it
/// is recomputed in each. Inits that are function arguments (destinations
/// of the kernel) keep the op as it is. Returns the new op, or failure.
static FailureOr<linalg::GenericOp> readInitsAsInputs(RewriterBase &rewriter,
                                                      linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0)
    return failure();
  SmallVector<OpOperand *> read;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.payloadUsesValueFromOperand(&init)) {
      if (isa<BlockArgument>(init.get()))
        return failure();
      read.push_back(&init);
    }
  if (read.empty())
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(op.getMatchingIndexingMap(input));
  for (OpOperand *init : read) {
    inputs.push_back(init->get());
    maps.push_back(op.getMatchingIndexingMap(init));
  }
  SmallVector<Value> inits;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    maps.push_back(op.getMatchingIndexingMap(&init));
    if (!llvm::is_contained(read, &init)) {
      inits.push_back(init.get());
      continue;
    }
    auto type = cast<RankedTensorType>(init.get().getType());
    inits.push_back(tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init.get()),
        type.getElementType()));
  }
  linalg::GenericOp rewritten =
      rebuildGeneric(rewriter, op, op->getResultTypes(), inputs, inits, maps);
  // The body: the old inputs, then the inits read (as inputs), then the
  // inits; the old body's init arguments that are read become the new
  // input arguments.
  Region &region = rewritten.getRegion();
  Block &body = region.front();
  unsigned numInputs = op.getNumDpsInputs();
  unsigned numRead = read.size();
  for (auto [j, init] : llvm::enumerate(read)) {
    Type type = body.getArgument(init->getOperandNumber()).getType();
    body.insertArgument(numInputs + j, type, loc);
  }
  for (auto [j, init] : llvm::enumerate(read)) {
    unsigned initIndex = init->getOperandNumber() - numInputs;
    rewriter.replaceAllUsesWith(
        body.getArgument(numInputs + numRead + initIndex),
        body.getArgument(numInputs + j));
  }
  rewriter.replaceOp(op, rewritten->getResults());
  return rewritten;
}

/// Fuses an elementwise producer into its consumer generics.
/// (Upstream's populateElementwiseOpsFusionPatterns would also replace unused
/// `outs` with tensor.empty, which breaks destination-passing kernels.)
struct FuseElementwiseProducer : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    // A matmul reads its operands as they are (into shared-memory tiles):
    // recomputing a producer inside its K loop would cost M or N times over.
    Family family = classify(consumer);
    if (family == Family::Matmul || family == Family::Contraction)
      return rewriter.notifyMatchFailure(consumer, "a contraction");
    for (OpOperand &operand : consumer->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || !isFusableEverywhere(producer) ||
          !linalg::areElementwiseOpsFusable(&operand))
        continue;
      // A producer that updates a tensor in place stays, fused, an output
      // of the fused op. Beside other users it would be written by each;
      // under a user that reads it more than once (a broadcast: a map that
      // is no permutation), at the broadcast's map, it would be updated once
      // per read (a padded matmul's corner added to a bias, broadcast over
      // three rows, added the product three times). So the producer reads
      // that tensor as an input first; updating an argument of the kernel,
      // it is not fused into a broadcast.
      bool broadcast =
          !consumer.getMatchingIndexingMap(&operand).isPermutation();
      if (auto generic = dyn_cast<linalg::GenericOp>(producer);
          generic && (broadcast || !producer->hasOneUse())) {
        if (succeeded(readInitsAsInputs(rewriter, generic)))
          return success();
        if (broadcast &&
            llvm::any_of(generic.getDpsInitsMutable(), [&](OpOperand &init) {
              return generic.payloadUsesValueFromOperand(&init);
            }))
          continue;
      }
      // A producer with other users: this consumer fuses a copy of it,
      // the others keep the original (fused into them in turn).
      Operation *original = producer;
      if (!producer->hasOneUse()) {
        rewriter.setInsertionPoint(consumer);
        producer = rewriter.clone(*producer);
        rewriter.modifyOpInPlace(consumer, [&] {
          operand.set(producer->getResult(
              cast<OpResult>(operand.get()).getResultNumber()));
        });
      }
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused)) {
        if (producer != original) {
          rewriter.modifyOpInPlace(consumer, [&] {
            operand.set(original->getResult(
                cast<OpResult>(operand.get()).getResultNumber()));
          });
          rewriter.eraseOp(producer);
        }
        continue;
      }
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceAllUsesExcept(original, replacement, fused->fusedOp);
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return rewriter.notifyMatchFailure(consumer, "no fusable producer");
  }
};

/// Whether an input of the (batched) matmul `op` is stored (n, k).
static bool hasTransposedOperand(linalg::LinalgOp op, int64_t batch) {
  unsigned k = op.getNumLoops() - 1;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned n = out.getDimPosition(batch + 1);
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned rows = map.getNumResults() - 2;
    return map.getDimPosition(rows) == n && map.getDimPosition(rows + 1) == k;
  });
}

/// Replaces `op` (one result, into an f16 or bf16 `init`) by a generic with
/// the same operands, maps and loops that accumulates in f32, its body from
/// `buildBody` (given the f32 accumulator as the last argument), and rounds
/// the result once into the original destination. The f32 accumulator starts
/// from `init`'s fill value widened (the fill's destination gives its sizes,
/// so the fill no longer outlives it), or from `init`'s contents.
static void replaceAccumulatingInF32(
    PatternRewriter &rewriter, linalg::LinalgOp op, Value init,
    function_ref<void(OpBuilder &, Location, ValueRange)> buildBody) {
  Location loc = op.getLoc();
  Type f32 = rewriter.getF32Type();
  Type narrow = getElementTypeOrSelf(init.getType());
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value destination = fill ? fill.getDpsInitOperand(0)->get() : init;
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, destination), f32);
  Value wideInit =
      fill ? linalg::FillOp::create(
                 rewriter, loc,
                 ValueRange{arith::ExtFOp::create(
                     rewriter, loc, f32, fill.getDpsInputOperand(0)->get())},
                 ValueRange{empty})
                 .getResult(0)
           : convertTensor(rewriter, loc, init, f32, empty);
  auto wide = linalg::GenericOp::create(
      rewriter, loc, wideInit.getType(), op.getDpsInputs(), wideInit,
      op.getIndexingMapsArray(), op.getIteratorTypesArray(), buildBody);
  wide->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.replaceOp(
      op, convertTensor(rewriter, loc, wide.getResult(0), narrow, destination));
}

/// A contraction (matmul, batched matmul, matvec, ...) of float operands with
/// an f16 or bf16 accumulator accumulates in f32 and is rounded once at the
/// end, as PyTorch, cuBLAS and the tensor cores compute it (linalg's literal
/// semantics would round every partial sum: percents off over a K of
/// thousands): the contraction writes a fresh f32 tensor, started from the
/// accumulator's fill value (or its widened contents), and an elementwise op
/// rounds it into the original destination. The verifier's references take
/// the same form, then sum in f64.
struct AccumulateInF32 : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
        !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a contraction");
    Value init = op.getDpsInitOperand(0)->get();
    auto initType = cast<RankedTensorType>(init.getType());
    Type narrow = initType.getElementType();
    if (!narrow.isF16() && !narrow.isBF16())
      return rewriter.notifyMatchFailure(op, "not a 16-bit accumulator");
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<FloatType>(getElementTypeOrSelf(input->get()));
      if (!type || type.getWidth() > 32)
        return rewriter.notifyMatchFailure(op, "not 16/32-bit float inputs");
    }
    if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0))
             .isProjectedPermutation())
      return rewriter.notifyMatchFailure(op, "output not a projection");
    Type f32 = rewriter.getF32Type();
    replaceAccumulatingInF32(
        rewriter, op, init, [&](OpBuilder &b, Location l, ValueRange args) {
          auto extend = [&](Value v) {
            return v.getType() == f32
                       ? v
                       : Value(arith::ExtFOp::create(b, l, f32, v));
          };
          Value product =
              arith::MulFOp::create(b, l, extend(args[0]), extend(args[1]));
          linalg::YieldOp::create(
              b, l, Value(arith::AddFOp::create(b, l, args[2], product)));
        });
    return success();
  }
};

/// A sum (not a contraction: those are AccumulateInF32's) into an f16 or bf16
/// accumulator — a softmax's sum of exponentials, a norm's mean — accumulates
/// in f32 and is rounded once, as PyTorch computes it: each term is computed
/// as the program says, then extended and added to an f32 partial sum. In
/// f16 a serial sum of 30011 terms of about 0.3 stalls near 2048, 6x short,
/// while a block's 1024 partial sums do not: a program literally summing in
/// f16 has no answer a parallel plan and its reference agree on.
struct SumInF32 : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 || op.getNumReductionLoops() == 0 ||
        linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a reduction");
    OpOperand *initOperand = op.getDpsInitOperand(0);
    Value init = initOperand->get();
    Type narrow = getElementTypeOrSelf(init.getType());
    if (!narrow.isF16() && !narrow.isBF16())
      return rewriter.notifyMatchFailure(op, "not a 16-bit accumulator");
    if (!op.getMatchingIndexingMap(initOperand)
             .isProjectedPermutation(
                 /*allowZeroInResults=*/true))
      return rewriter.notifyMatchFailure(op, "output not a projection");
    // The body adds one term to the accumulator, which nothing else reads.
    Block &body = *op.getBody();
    BlockArgument accumulator = op.getMatchingBlockArgument(initOperand);
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
    if (!add || !accumulator.hasOneUse() ||
        (add.getLhs() != accumulator && add.getRhs() != accumulator) ||
        add.getLhs() == add.getRhs() || !add->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not a sum");
    for (Operation &inner : body.without_terminator()) {
      StringRef dialect = inner.getName().getDialectNamespace();
      if (inner.getNumRegions() != 0 ||
          (dialect != "arith" && dialect != "math" &&
           !isa<linalg::IndexOp>(inner)))
        return rewriter.notifyMatchFailure(op, "a body op it cannot copy");
    }
    Value term = add.getLhs() == accumulator ? add.getRhs() : add.getLhs();
    Type f32 = rewriter.getF32Type();
    replaceAccumulatingInF32(
        rewriter, op, init, [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          for (auto [from, to] : llvm::zip(body.getArguments(), args))
            mapping.map(from, to);
          for (Operation &inner : body.without_terminator())
            if (&inner != add.getOperation())
              b.clone(inner, mapping);
          Value wideTerm =
              arith::ExtFOp::create(b, l, f32, mapping.lookupOrDefault(term));
          linalg::YieldOp::create(
              b, l, Value(arith::AddFOp::create(b, l, args.back(), wideTerm)));
        });
    return success();
  }
};

/// Drops the unit M and N loops of a contraction (upstream
/// linalg::dropUnitDims): a matmul with one column or one row (torch's matmul
/// of a matrix and a (K, 1) vector, a Linear layer on one row) becomes a
/// matrix-vector product, planned as a row (or column) reduction. Padded to
/// the matmul plans' 64 x 64 tiles it would compute 64 times its work and
/// read the vector with a 64-element stride.
struct ContractionUnitLoops
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  ContractionUnitLoops(MLIRContext *ctx)
      : OpInterfaceRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a contraction");
    // Unit M or N loops; a unit batch loop (one every operand reads) is
    // left to the batched matmul plans.
    auto isBatchLoop = [&](unsigned loop) {
      return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return op.getMatchingIndexingMap(input).isFunctionOfDim(loop);
      });
    };
    SmallVector<unsigned> unitLoops;
    for (auto [i, bound, iterator] :
         llvm::enumerate(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
      if (bound == 1 && iterator == utils::IteratorType::parallel &&
          !isBatchLoop(i))
        unitLoops.push_back(i);
    if (unitLoops.empty() || unitLoops.size() == op.getNumParallelLoops())
      return rewriter.notifyMatchFailure(op, "no unit loop to drop");
    bool changed;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, op, changed);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    linalg::ControlDropUnitDims options;
    options.controlFn = [&](Operation *) { return unitLoops; };
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, *generic, options);
    if (failed(dropped))
      return success(changed);
    dropped->resultOp->setDiscardableAttrs(
        (*generic)->getDiscardableAttrDictionary());
    rewriter.replaceOp(*generic, dropped->replacements);
    return success();
  }
};

/// Reads B of a (batched) matmul the wgmma plan takes through the
/// linalg.transpose that made it (torch-mlir's Linear: a weight stored
/// (n, k), transposed, then multiplied; attention's keys, (b, n, k)): the
/// matmul reads the weight as (n, k) and its kernel loads it k-major, as A,
/// with no copy. The transpose goes when nothing else reads it.
struct ReadTransposedWeight
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp linalgOp,
                                PatternRewriter &rewriter) const override {
    if (!linalgOp.hasPureTensorSemantics() || readsNKRhs(linalgOp) ||
        !takesWgmma(linalgOp, /*rhsSwapped=*/true))
      return rewriter.notifyMatchFailure(linalgOp, "not a wgmma matmul");
    auto transpose = linalgOp.getDpsInputOperand(1)
                         ->get()
                         .getDefiningOp<linalg::TransposeOp>();
    // The last two dimensions swapped, any batch dimension kept.
    SmallVector<int64_t> swapped = llvm::to_vector(
        llvm::seq<int64_t>(0, getWgmmaBatchLoops(linalgOp) + 2));
    std::swap(swapped[swapped.size() - 2], swapped.back());
    if (!transpose || transpose.getPermutation() != ArrayRef(swapped))
      return rewriter.notifyMatchFailure(linalgOp, "B is not transposed");
    if (swapped.size() > 2 && !isWholeBatchedOperand(transpose.getInput()))
      return rewriter.notifyMatchFailure(linalgOp, "B's keys are a slice");
    bool generalized;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, linalgOp, generalized);
    if (failed(generic))
      return rewriter.notifyMatchFailure(linalgOp, "cannot generalize");
    SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
    SmallVector<AffineExpr> b(maps[1].getResults());
    std::swap(b[b.size() - 2], b.back());
    maps[1] = AffineMap::get(maps[1].getNumDims(), 0, b, generic->getContext());
    rewriter.modifyOpInPlace(*generic, [&] {
      generic->getDpsInputOperand(1)->set(transpose.getInput());
      generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    if (transpose->use_empty())
      rewriter.eraseOp(transpose);
    return success();
  }
};

/// Reads the matrix of a matrix-vector product through the linalg.transpose
/// that made it, when the product would read the copy a column at a time:
/// torch-mlir's Linear on one row (a weight stored (n, k), transposed, then
/// multiplied by a vector once the unit row is dropped) becomes y = W x,
/// whose plan gives each output a warp that reads W's row along K in
/// order. The transposed copy (a pass over the whole matrix) goes when
/// nothing else reads it.
struct ReadTransposedMatrix
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp linalgOp,
                                PatternRewriter &rewriter) const override {
    if (!linalgOp.hasPureTensorSemantics() || linalgOp.getNumLoops() != 2 ||
        linalgOp.getNumParallelLoops() != 1 ||
        linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1 ||
        !linalg::isaContractionOpInterface(linalgOp))
      return rewriter.notifyMatchFailure(linalgOp, "not a matrix-vector op");
    unsigned parallel =
        linalgOp.getIteratorTypesArray()[0] == utils::IteratorType::parallel
            ? 0
            : 1;
    MLIRContext *ctx = linalgOp.getContext();
    AffineMap columns = AffineMap::get(
        2, 0,
        {getAffineDimExpr(1 - parallel, ctx), getAffineDimExpr(parallel, ctx)},
        ctx);
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (!transpose || linalgOp.getMatchingIndexingMap(input) != columns ||
          transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
        continue;
      bool generalized;
      FailureOr<linalg::GenericOp> generic =
          getOrGeneralize(rewriter, linalgOp, generalized);
      if (failed(generic))
        return rewriter.notifyMatchFailure(linalgOp, "cannot generalize");
      unsigned number = input->getOperandNumber();
      SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
      maps[number] = AffineMap::getPermutationMap(
          ArrayRef<unsigned>{parallel, 1 - parallel}, ctx);
      rewriter.modifyOpInPlace(*generic, [&] {
        (*generic)->getOpOperand(number).set(transpose.getInput());
        generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      if (transpose->use_empty())
        rewriter.eraseOp(transpose);
      return success();
    }
    return rewriter.notifyMatchFailure(linalgOp, "no transposed matrix");
  }
};

/// Gives a (batched) matmul generic whose right-hand operand is stored
/// transposed, (n, k) instead of (k, n), a transposed copy of it
/// (linalg.transpose into a new tensor) to read instead: the matmul plans
/// read k-rows of B from shared memory as vectors, which a transposed tile
/// turns into strided scalar loads (a copy costs one pass over B). Not for
/// a matmul the wgmma plan takes (with `wgmma`): its kernel reads B (n, k)
/// as it is.
struct TransposeMatmulOperand
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  TransposeMatmulOperand(MLIRContext *ctx, bool wgmma)
      : OpInterfaceRewritePattern(ctx), wgmma(wgmma) {}
  /// Whether matmuls that take the wgmma plan are left alone.
  bool wgmma;

  LogicalResult matchAndRewrite(linalg::LinalgOp linalgOp,
                                PatternRewriter &rewriter) const override {
    if (wgmma && takesWgmma(linalgOp))
      return rewriter.notifyMatchFailure(linalgOp, "the wgmma plan takes it");
    int64_t batch = getNumBatchLoops(linalgOp);
    if (batch < 0 || !linalgOp.hasPureTensorSemantics() ||
        linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(linalgOp, "not a (batched) matmul");
    // A named op with transposing maps (linalg.matmul indexing_maps = ...)
    // becomes a generic, whose maps can change.
    if (!isa<linalg::GenericOp>(linalgOp.getOperation()) &&
        !hasTransposedOperand(linalgOp, batch))
      return rewriter.notifyMatchFailure(linalgOp, "no transposed operand");
    bool generalized;
    FailureOr<linalg::GenericOp> generic =
        getOrGeneralize(rewriter, linalgOp, generalized);
    if (failed(generic))
      return rewriter.notifyMatchFailure(linalgOp, "cannot generalize");
    linalg::GenericOp op = *generic;
    rewriter.setInsertionPoint(op);
    unsigned k = op.getNumLoops() - 1;
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    unsigned n = out.getDimPosition(batch + 1);
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      // An operand shared by every batch has no batch dimensions.
      unsigned rows = map.getNumResults() - 2;
      if (map.getDimPosition(rows) != n || map.getDimPosition(rows + 1) != k)
        continue;
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      // Given up after generalizing: the named op is gone all the same.
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        return generalized ? success()
                           : rewriter.notifyMatchFailure(
                                 op, "dynamic or unusual operand");
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      std::swap(permutation[rows], permutation[rows + 1]);
      SmallVector<int64_t> shape =
          applyPermutation(type.getShape(), permutation);
      Location loc = op.getLoc();
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
      Value transposed = linalg::TransposeOp::create(
                             rewriter, loc, input->get(), empty, permutation)
                             ->getResult(0);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      SmallVector<AffineExpr> results(map.getResults());
      std::swap(results[rows], results[rows + 1]);
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      rewriter.modifyOpInPlace(op, [&] {
        input->set(transposed);
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return generalized
               ? success()
               : rewriter.notifyMatchFailure(op, "no transposed operand");
  }
};

/// Whether `op` multiplies row-major operands over `batch` leading loops:
/// (b..., m, k) x (b..., k, n) -> (b..., m, n), loops (b..., m, n, k).
static bool isRowMajorMatmul(linalg::LinalgOp op, int64_t batch) {
  MLIRContext *ctx = op->getContext();
  unsigned loops = batch + 3;
  auto map = [&](ArrayRef<unsigned> tail) {
    SmallVector<AffineExpr> results;
    for (unsigned b = 0; b < batch; ++b)
      results.push_back(getAffineDimExpr(b, ctx));
    for (unsigned t : tail)
      results.push_back(getAffineDimExpr(batch + t, ctx));
    return AffineMap::get(loops, 0, results, ctx);
  };
  return op.getNumLoops() == loops &&
         op.getIndexingMapsArray() ==
             SmallVector<AffineMap>{map({0, 2}), map({2, 1}), map({0, 1})};
}

/// Whether the body of `op` is `out + a * b` (operands in either order, no
/// casts) on one element type: floats without fast-math flags, or integers
/// wider than i1. That is what linalg.matmul and linalg.batch_matmul
/// compute.
static bool isPlainMultiplyAdd(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  Type element = body.getArgument(0).getType();
  // The multiply, the add and the yield: nothing to cast.
  if (body.getOperations().size() != 3 ||
      llvm::any_of(body.getArgumentTypes(),
                   [&](Type type) { return type != element; }))
    return false;
  return linalg::detail::isContractionBody(body, [&](Operation *mul,
                                                     Operation *add) {
    if (isa<FloatType>(element)) {
      auto mulf = dyn_cast<arith::MulFOp>(mul);
      auto addf = dyn_cast<arith::AddFOp>(add);
      return mulf && addf && mulf.getFastmath() == arith::FastMathFlags::none &&
             addf.getFastmath() == arith::FastMathFlags::none;
    }
    return element.isInteger() && element.getIntOrFloatBitWidth() > 1 &&
           isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add);
  });
}

/// A (batched) matmul written as a generic with the named op's maps and
/// body becomes linalg.matmul or linalg.batch_matmul (how IREE and StableHLO
/// lowerings, and the transposed-operand rewrite above, leave it). The
/// micro-coder vectorizes named contractions as vector.contract, which
/// lowers to FMAs; a generic's broadcast product and separate reduction
/// became a multiplication and an addition per term: on the H100 a
/// 1024 x 4096 x 2048 f32 generic took 0.66 ms, the named op 0.43.
struct NameRowMajorMatmul : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    int64_t batch = static_cast<int64_t>(op.getNumLoops()) - 3;
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || batch < 0 || batch > 1 ||
        !isRowMajorMatmul(op, batch) || !isPlainMultiplyAdd(op))
      return rewriter.notifyMatchFailure(op, "not a plain (batched) matmul");
    SmallVector<Value> inputs = op.getDpsInputs();
    Value init = op.getDpsInitOperand(0)->get();
    Operation *named =
        batch == 0 ? linalg::MatmulOp::create(rewriter, op.getLoc(), inputs,
                                              ValueRange{init})
                         .getOperation()
                   : linalg::BatchMatmulOp::create(rewriter, op.getLoc(),
                                                   inputs, ValueRange{init})
                         .getOperation();
    rewriter.replaceOp(op, named->getResults());
    return success();
  }
};

/// A matrix operand (b..., R, C) of a matmul copied into the layout of the
/// padded product: a fresh tensor of `sizes`, [S,] b..., then its own row
/// and column dimensions, each element read where `locate` puts it in the
/// source (its row and column from the copy's indices past the batch ones)
/// and zero past the source's R rows and C columns. `split` says whether
/// the copy leads with the K parts (S) before the batch dimensions.
static Value gatherOperandTiles(
    RewriterBase &rewriter, Location loc, Value source, int64_t batch,
    bool split, ArrayRef<OpFoldResult> sizes, Value zero,
    function_ref<std::pair<Value, Value>(OpBuilder &, Location, ValueRange)>
        locate) {
  auto type = cast<RankedTensorType>(source.getType());
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
  Value one = constantIndex(rewriter, loc, 1);
  auto last = [&](int64_t d) -> Value {
    return arith::SubIOp::create(
        rewriter, loc,
        getValueOrCreateConstantIndexOp(
            rewriter, loc, tensor::getMixedSize(rewriter, loc, source, d)),
        one);
  };
  Value lastRow = last(batch), lastCol = last(batch + 1);
  int64_t lead = split ? 1 : 0;
  linalg::GenericOp gather = buildGather(
      rewriter, loc, cast<RankedTensorType>(empty.getType()), empty,
      [&](OpBuilder &b, Location nloc, ValueRange indices, Value) {
        SmallVector<Value> at(indices.slice(lead, batch));
        auto [row, col] = locate(b, nloc, indices.drop_front(lead + batch));
        Value inRows = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::ule,
                                             row, lastRow);
        Value inCols = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::ule,
                                             col, lastCol);
        at.push_back(arith::MinUIOp::create(b, nloc, row, lastRow));
        at.push_back(arith::MinUIOp::create(b, nloc, col, lastCol));
        Value value = tensor::ExtractOp::create(b, nloc, source, at);
        Value inside = arith::AndIOp::create(b, nloc, inRows, inCols);
        return arith::SelectOp::create(b, nloc, inside, value, zero)
            .getResult();
      });
  return gather.getResult(0);
}

/// How many parts a matmul's padded K (`kp`) is split into, each on blocks
/// of its own, their partial products summed by the copy of the output: 1
/// unless the product's `blocks` leave more than half of the SMs idle, else
/// as many as fill them (choosePartCount, the rule of split reductions),
/// each part at least kMinSplitK long, at most kMaxSplitK parts. The
/// partial products cost 4·S/K bytes (f64: 8·S/K) per flop of the product
/// more (S = parts): about a sixth of the product's time at most for f32 on
/// a large dynamic M (K per part ≥ 128).
static int64_t getKSplits(int64_t blocks, int64_t kp, int64_t numSMs) {
  constexpr int64_t kMinSplitK = 128, kMaxSplitK = 8;
  if (numSMs <= 0 || 2 * blocks > numSMs)
    return 1;
  return std::min(choosePartCount(numSMs / blocks, kp, kMinSplitK), kMaxSplitK);
}

/// Pads a (batched) row-major matmul with f32 (or f64) accumulation whose M, N
/// or K the matmul plans' tiles do not divide: A and B are padded with zeros
/// (tensor.pad, a gather generic after PadToGeneric), the product of the
/// padded operands goes to a fresh tensor, and its [M, N] corner is added to
/// (or, on a zero-filled output, copied into) the original output; when only
/// K is padded, the product accumulates into the output itself. A dynamic
/// M is padded to a multiple of 64 and split into (M / 64, 64), a batch loop
/// that B does not index, so every block still takes a whole tile; a
/// dynamic N or K is left alone. The fast plans (shared-memory tiles,
/// vectors, the cp.async pipeline, tensor cores) then run on every size,
/// for a copy of A and B and one of the output. With few blocks (numSMs),
/// K is also split into parts computed as batches of the product and
/// summed by the copy of the output (split-K). A matmul the wgmma plan
/// takes once its N and K are multiples of 8 (TMA's 16-byte rows) gets only
/// that padding: TMA's zero fill covers partial tiles, and M stays as it is,
/// dynamic or not.
struct PadMatmulToTiles : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  PadMatmulToTiles(MLIRContext *ctx, bool wgmma, int64_t numSMs)
      : OpInterfaceRewritePattern(ctx), wgmma(wgmma), numSMs(numSMs) {}
  /// Whether matmuls that take the wgmma plan are left alone.
  bool wgmma;
  /// The target's SMs, for split-K (0: never split).
  int64_t numSMs;

  static constexpr int64_t kTileMN = 64;
  static constexpr int64_t kTileK = 32;
  /// N and K of the wgmma plan: multiples of 8 (16-byte TMA rows).
  static constexpr int64_t kWgmmaAlign = 8;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
        op.getNumReductionLoops() != 1 ||
        !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a matmul");
    if (wgmma && takesWgmma(op))
      return rewriter.notifyMatchFailure(op, "the wgmma plan takes it");
    bool wgmmaPlan = wgmma && takesWgmmaOncePadded(op);
    int64_t batch = static_cast<int64_t>(op.getNumLoops()) - 3;
    if (batch < 0 || !isRowMajorMatmul(op, batch))
      return rewriter.notifyMatchFailure(op, "not a row-major matmul");
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    Type ea = getElementTypeOrSelf(a), eb = getElementTypeOrSelf(b);
    Type ec = getElementTypeOrSelf(c);
    bool f32Plan = ec.isF32() && (ea.isF32() || ea.isF16() || ea.isBF16());
    bool f64Plan = ec.isF64() && ea.isF64();
    if (ea != eb || !(f32Plan || f64Plan || wgmmaPlan))
      return rewriter.notifyMatchFailure(op, "not a matmul plan's types");
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    int64_t m = bounds[batch], n = bounds[batch + 1], k = bounds[batch + 2];
    if (ShapedType::isDynamic(n) || ShapedType::isDynamic(k))
      return rewriter.notifyMatchFailure(op, "dynamic N or K");
    if (k < kMinTiledMatmulK && !wgmmaPlan)
      return rewriter.notifyMatchFailure(op, "a short K: planned as it is");
    bool dynamicM = ShapedType::isDynamic(m);
    // A dynamic M split into (M / 64, 64) tiles (not for wgmma).
    bool splitM = dynamicM && !wgmmaPlan;
    int64_t mp = wgmmaPlan  ? m
                 : dynamicM ? kTileMN
                            : getPaddedSize(m, kTileMN, 16);
    int64_t np = wgmmaPlan ? llvm::alignTo(n, kWgmmaAlign)
                           : getPaddedSize(n, kTileMN, 16);
    int64_t kp =
        wgmmaPlan ? llvm::alignTo(k, kWgmmaAlign) : getPaddedSize(k, kTileK, 4);
    if (!splitM && mp == m && np == n && kp == k)
      return rewriter.notifyMatchFailure(op, "whole tiles already");
    // Split-K, while A and B are copied anyway: a matmul of f32 or bf16
    // into f32 (the SIMT plan) or of f64 (the FP64 tensor cores' or the
    // SIMT plan; f16 takes the tensor cores, 16-bit types wgmma on sm_90)
    // whose blocks leave most SMs idle: static batches times output tiles,
    // a dynamic M counting as one tile (a dynamic batch, as many, is not
    // split). K becomes S parts of `kc`. (Long, thin products on whole
    // tiles are split by qimeng-split-reductions, B's parts a reshape.)
    int64_t splits = 1;
    bool splitTypes = (ec.isF32() && (ea.isF32() || ea.isBF16())) || f64Plan;
    ArrayRef<int64_t> batchBounds = ArrayRef<int64_t>(bounds).take_front(batch);
    if (!wgmmaPlan && splitTypes &&
        llvm::none_of(batchBounds, ShapedType::isDynamic))
      splits = getKSplits(computeProduct(batchBounds) *
                              (splitM ? 1 : llvm::divideCeil(mp, kTileMN)) *
                              llvm::divideCeil(np, kTileMN),
                          kp, numSMs);
    int64_t kc = kp;
    if (splits > 1) {
      kc = llvm::alignTo(llvm::divideCeil(k, splits), kTileK);
      kp = splits * kc;
    }
    bool split = splits > 1;

    Location loc = op.getLoc();
    MLIRContext *ctx = op->getContext();
    auto index = [&](int64_t v) -> OpFoldResult {
      return rewriter.getIndexAttr(v);
    };
    // M as padded (not split: static, or a dynamic M the wgmma plan keeps),
    // or the number of 64-row tiles of a split dynamic M.
    OpFoldResult mSize = tensor::getMixedSize(rewriter, loc, a, batch);
    OpFoldResult mPadded = dynamicM ? mSize : index(mp);
    OpFoldResult mTiles;
    if (splitM)
      mTiles = affine::makeComposedFoldedAffineApply(
          rewriter, loc, getAffineSymbolExpr(0, ctx).ceilDiv(kTileMN), {mSize});
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(getElementTypeOrSelf(a)));
    // Pads `value` (batch..., rows, cols) at the end of its last two dims.
    auto pad = [&](Value value, OpFoldResult rows, int64_t cols) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<OpFoldResult> low(type.getRank(), index(0));
      SmallVector<OpFoldResult> high(type.getRank(), index(0));
      AffineExpr s0 = getAffineSymbolExpr(0, ctx);
      AffineExpr s1 = getAffineSymbolExpr(1, ctx);
      // A's rows as measured above (the same value: an unpadded dynamic M
      // folds to no padding).
      OpFoldResult size =
          value == a ? mSize
                     : tensor::getMixedSize(rewriter, loc, value, batch);
      high[batch] = affine::makeComposedFoldedAffineApply(
          rewriter, loc, s1 - s0, {size, rows});
      high[batch + 1] = index(cols - type.getDimSize(batch + 1));
      if (llvm::all_of(high,
                       [](OpFoldResult h) { return isConstantIntValue(h, 0); }))
        return value;
      SmallVector<int64_t> shape(type.getShape());
      std::optional<int64_t> r = getConstantIntValue(rows);
      shape[batch] = r ? *r : ShapedType::kDynamic;
      shape[batch + 1] = cols;
      auto padded = tensor::PadOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          value, low, high, zero);
      return padded.getResult();
    };
    // The copies' sizes: [S,] the batch sizes, then the given ones.
    auto copySizes = [&](Value value, ArrayRef<OpFoldResult> tail) {
      SmallVector<OpFoldResult> sizes;
      if (split)
        sizes.push_back(index(splits));
      for (int64_t d = 0; d < batch; ++d)
        sizes.push_back(tensor::getMixedSize(rewriter, loc, value, d));
      llvm::append_range(sizes, tail);
      return sizes;
    };
    Value tileRows = constantIndex(rewriter, loc, kTileMN);
    Value partK = constantIndex(rewriter, loc, kc);
    // A K index of part `s` (the copy's index 0 when split).
    auto kIndex = [&](OpBuilder &nb, Location nloc, Value kk) -> Value {
      if (!split)
        return kk;
      Value s = linalg::IndexOp::create(nb, nloc, 0);
      return arith::AddIOp::create(
          nb, nloc, arith::MulIOp::create(nb, nloc, s, partK), kk);
    };
    // With a dynamic M, A goes straight into ([S,] b..., M/64, 64, K) tiles
    // by a gather (a reshaped view would keep the matmul from folding its
    // subviews, and its vector loads with them); split, A goes into
    // (S, M, K / S) and B into (S, K / S, N) parts the same way.
    Value ap, bp;
    if (splitM || split) {
      SmallVector<OpFoldResult> tail;
      if (splitM)
        tail = {mTiles, index(kTileMN), index(kc)};
      else
        tail = {index(mp), index(kc)};
      ap = gatherOperandTiles(
          rewriter, loc, a, batch, split, copySizes(a, tail), zero,
          [&](OpBuilder &nb, Location nloc, ValueRange at) {
            Value row = at[0];
            if (splitM)
              row = arith::AddIOp::create(
                  nb, nloc, arith::MulIOp::create(nb, nloc, at[0], tileRows),
                  at[1]);
            return std::make_pair(row, kIndex(nb, nloc, at.back()));
          });
    } else {
      ap = pad(a, mPadded, kp);
    }
    if (split)
      bp = gatherOperandTiles(
          rewriter, loc, b, batch, split, copySizes(b, {index(kc), index(np)}),
          zero, [&](OpBuilder &nb, Location nloc, ValueRange at) {
            return std::make_pair(kIndex(nb, nloc, at[0]), at[1]);
          });
    else
      bp = pad(b, index(kp), np);

    // The product's operands and loops: with a dynamic M, A is (b..., M/64,
    // 64, K) and the product (b..., M/64, 64, N); split, each has the parts
    // first, (S, ...). Only K padded (M and N as they were, M not split, K
    // not split): the product has the output's shape and accumulates into
    // the output itself, no copy.
    int64_t lead = (split ? 1 : 0) + batch + (splitM ? 1 : 0);
    bool sameOutput = !split && !splitM && mp == m && np == n;
    Value productInit = c;
    // Where the corner goes: taken before the sizes below read the output
    // (a use of a zero fill that would keep it).
    ProductDestination destination = getProductDestination(c);
    if (!sameOutput) {
      SmallVector<OpFoldResult> productSizes;
      if (split)
        productSizes.push_back(index(splits));
      for (int64_t d = 0; d < batch; ++d)
        productSizes.push_back(
            tensor::getMixedSize(rewriter, loc, destination.dest, d));
      if (splitM)
        productSizes.push_back(mTiles);
      productSizes.append({splitM ? index(kTileMN) : mPadded, index(np)});
      productInit = tensor::EmptyOp::create(rewriter, loc, productSizes, ec);
      Value cZero =
          arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(ec));
      productInit = linalg::FillOp::create(rewriter, loc, cZero, productInit)
                        .getResult(0);
    }
    // Loops ([s,] b..., [q,] m, n, k); B indexes neither the M tiles (q)
    // nor M.
    unsigned loops = lead + 3;
    auto dims = [&](ArrayRef<unsigned> positions) {
      SmallVector<AffineExpr> results;
      for (unsigned p : positions)
        results.push_back(getAffineDimExpr(p, ctx));
      return AffineMap::get(loops, 0, results, ctx);
    };
    SmallVector<unsigned> aDims = llvm::to_vector(llvm::seq<unsigned>(0, lead));
    SmallVector<unsigned> cDims = aDims;
    SmallVector<unsigned> bDims =
        llvm::to_vector(llvm::seq<unsigned>(0, lead - (splitM ? 1 : 0)));
    unsigned mLoop = lead, nLoop = mLoop + 1, kLoop = mLoop + 2;
    aDims.append({mLoop, kLoop});
    bDims.append({kLoop, nLoop});
    cDims.append({mLoop, nLoop});
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    // The named ops where they fit (the tensor-core plan's mma.sync
    // conversion takes a batched generic's contraction less well).
    Operation *product;
    if (!splitM && lead == 0)
      product = linalg::MatmulOp::create(rewriter, loc, ValueRange{ap, bp},
                                         ValueRange{productInit});
    else if (!splitM && lead == 1)
      product = linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{ap, bp},
                                              ValueRange{productInit});
    else {
      auto generic = linalg::GenericOp::create(
          rewriter, loc, productInit.getType(), ValueRange{ap, bp},
          ValueRange{productInit},
          ArrayRef<AffineMap>{dims(aDims), dims(bDims), dims(cDims)},
          iterators);
      rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                                 generic.getRegion().end());
      product = generic;
    }
    Value full = product->getResult(0);
    if (sameOutput) {
      rewriter.replaceOp(op, full);
      return success();
    }
    // The [M, N] corner, into the original output, the parts summed: read
    // element by element (a gather, no view of the product: a view of it
    // would keep the matmul from holding its accumulators in registers
    // across K). On a zero-filled output the corner is the result: copied
    // into the fill's destination, the fill dropped.
    Value dest = destination.dest;
    bool accumulate = destination.accumulate;
    linalg::GenericOp copy = buildGather(
        rewriter, loc, cast<RankedTensorType>(c.getType()), dest,
        [&](OpBuilder &nb, Location nloc, ValueRange at, Value out) {
          SmallVector<Value> indices(at);
          if (splitM) {
            Value row = indices[batch];
            indices[batch] = arith::DivUIOp::create(nb, nloc, row, tileRows);
            indices.insert(indices.begin() + batch + 1,
                           arith::RemUIOp::create(nb, nloc, row, tileRows));
          }
          Value sum;
          for (int64_t s = 0; s < splits; ++s) {
            SmallVector<Value> part = indices;
            if (split)
              part.insert(part.begin(), constantIndex(nb, nloc, s));
            Value v = tensor::ExtractOp::create(nb, nloc, full, part);
            sum = sum ? arith::AddFOp::create(nb, nloc, sum, v).getResult() : v;
          }
          if (accumulate)
            sum = arith::AddFOp::create(nb, nloc, sum, out);
          return sum;
        });
    rewriter.replaceOp(op, copy.getResult(0));
    return success();
  }
};

/// The value `value` reshapes (through collapse_shape and expand_shape
/// ops), or `value` itself.
Value getReshapedSource(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      value = expand.getSrc();
    else
      break;
  }
  return value;
}

/// Destination-passing style: a tensor argument that a linalg op uses as its
/// output (`outs`), directly or reshaped (a keepdim output with its unit
/// dimensions dropped), is where the result goes, so bufferization may write
/// it in place; every other tensor argument is an input and must stay
/// unchanged. Explicit `bufferization.writable` attributes are kept.
void markDestinationArguments(func::FuncOp func) {
  if (func.isExternal())
    return;
  llvm::SmallDenseSet<unsigned> destinations;
  func.walk([&](DestinationStyleOpInterface op) {
    for (OpOperand &init : op.getDpsInitsMutable())
      if (auto arg = dyn_cast<BlockArgument>(getReshapedSource(init.get()));
          arg && arg.getOwner() == &func.getBody().front())
        destinations.insert(arg.getArgNumber());
  });
  MLIRContext *ctx = func.getContext();
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<TensorType>(arg.getType()) ||
        func.getArgAttr(arg.getArgNumber(), "bufferization.writable"))
      continue;
    func.setArgAttr(
        arg.getArgNumber(), "bufferization.writable",
        BoolAttr::get(ctx, destinations.contains(arg.getArgNumber())));
  }
}

/// Rejects a `tensor.dim` or `memref.dim` whose constant index is not a
/// dimension of its operand: the verifier lets it pass (its result is
/// undefined) and upstream's folders crash on it.
static LogicalResult checkDimIndices(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    Value source, index;
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else if (auto dim = dyn_cast<memref::DimOp>(op)) {
      source = dim.getSource();
      index = dim.getIndex();
    } else {
      return WalkResult::advance();
    }
    auto shaped = dyn_cast<ShapedType>(source.getType());
    std::optional<int64_t> i = getConstantIntValue(index);
    if (!shaped || !shaped.hasRank() || !i ||
        (*i >= 0 && *i < shaped.getRank()))
      return WalkResult::advance();
    op->emitOpError() << "reads dimension " << *i << " of a value of type "
                      << shaped << ", which has " << shaped.getRank()
                      << " dimension(s)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The smallest and largest values of `expr` over the loop box [0, ranges)
/// (the whole int64 range on overflow), or std::nullopt when `expr` is not
/// linear with constant coefficients or a range is dynamic.
static std::optional<std::pair<int64_t, int64_t>>
getRange(AffineExpr expr, ArrayRef<int64_t> ranges) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::make_pair(constant.getValue(), constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    int64_t range = ranges[dim.getPosition()];
    if (ShapedType::isDynamic(range) || range <= 0)
      return std::nullopt;
    return std::make_pair<int64_t, int64_t>(0, range - 1);
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  auto lhs = getRange(binary.getLHS(), ranges);
  auto rhs = getRange(binary.getRHS(), ranges);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t a, b, c, d;
  // An overflow is out of any buffer's bounds.
  auto overflowed = std::make_pair(std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(lhs->first, rhs->first, a) ||
        llvm::AddOverflow(lhs->second, rhs->second, b))
      return overflowed;
    return std::make_pair(a, b);
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(lhs->first, rhs->first, a) ||
        llvm::MulOverflow(lhs->first, rhs->second, b) ||
        llvm::MulOverflow(lhs->second, rhs->first, c) ||
        llvm::MulOverflow(lhs->second, rhs->second, d))
      return overflowed;
    return std::make_pair(std::min({a, b, c, d}), std::max({a, b, c, d}));
  default:
    return std::nullopt;
  }
}

/// Rejects a linalg op whose indexing maps reach outside a static operand
/// over its static loops (a convolution with a negative dilation, say):
/// the verifier lets some through and the lowering would crash on them or
/// read outside the buffer.
static LogicalResult checkAccessesInBounds(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) { return r == 0; }))
    return success();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasRank())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (d >= static_cast<size_t>(type.getRank()) || type.isDynamicDim(d))
        continue;
      std::optional<std::pair<int64_t, int64_t>> range = getRange(expr, ranges);
      if (!range)
        continue;
      if (range->first < 0 || range->second >= type.getDimSize(d))
        return op->emitOpError()
               << "reads operand " << operand.getOperandNumber()
               << " along dimension " << d << " at indices " << range->first
               << " to " << range->second << ", outside its size "
               << type.getDimSize(d) << " (strides, dilations or shapes "
               << "that do not fit)";
    }
  }
  return success();
}

class QiMengPreparePass
    : public impl::QiMengPreparePassBase<QiMengPreparePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkDimIndices(getOperation())))
      return signalPassFailure();
    WalkResult inBounds = getOperation().walk([](linalg::LinalgOp op) {
      return failed(checkAccessesInBounds(op)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (inBounds.wasInterrupted())
      return signalPassFailure();
    getOperation().walk(markDestinationArguments);
    MLIRContext *ctx = &getContext();
    // Convolutions become matmuls first, while their inputs are still
    // `tensor.pad`s (read through their sources) and before the window
    // patterns take them. Not for the verifier's references.
    if (padMatmuls) {
      RewritePatternSet im2col(ctx);
      populateTransposedConvPatterns(im2col);
      populateIm2ColPatterns(im2col, maxColumnBytes);
      if (failed(applyPatternsGreedily(getOperation(), std::move(im2col)))) {
        getOperation().emitError()
            << "rewriting convolutions as matmuls did not converge";
        return signalPassFailure();
      }
    }
    RewritePatternSet patterns(ctx);
    patterns.add<DecomposeAggregate, GeneralizeElementwise,
                 ReadThroughUnitReshape, ExtractThroughTranspose, PadToGeneric,
                 CollapseElementwiseLoops, InsertSliceToGeneric,
                 ConcatToGeneric, FuseElementwiseProducer, CopyReturnedSlice,
                 AccumulateInF32, SumInF32, ContractionUnitLoops>(ctx);
    patterns.add<TransposeMatmulOperand>(ctx, wgmma);
    patterns.add<NameRowMajorMatmul, ReadTransposedMatrix>(ctx);
    if (wgmma)
      patterns.add<ReadTransposedWeight>(ctx);
    populateWindowPatterns(patterns);
    populateConstantInputPatterns(patterns);
    populateDeadResultPatterns(patterns);
    populateKernelAssertPatterns(patterns);
    populateScalarOutputPatterns(patterns);
    populateSharedInitPatterns(patterns);
    populateReshapedProductPatterns(patterns);
    if (padMatmuls)
      patterns.add<PadMatmulToTiles>(ctx, wgmma, numSMs);
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(10000);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation().emitError()
          << "preparing kernels for planning did not converge";
      return signalPassFailure();
    }
    // Split-K for wgmma matmuls with few output tiles, once their operands
    // are final (a folded transpose, padding); the sum of the parts fuses
    // with the matmul's elementwise consumers.
    if (padMatmuls && wgmma) {
      RewritePatternSet split(ctx);
      populateWgmmaSplitKPatterns(split, numSMs);
      split.add<FuseElementwiseProducer>(ctx);
      if (failed(applyPatternsGreedily(getOperation(), std::move(split)))) {
        getOperation().emitError()
            << "splitting the K of wgmma matmuls did not converge";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace mlir::qimeng
