//===- Im2Col.cpp - Convolutions as batched matmuls -----------------------===//
//
// A convolution planned as a window runs a thread per output, each reading
// its C x KH x KW inputs and weights from global memory: KernelBench's
// convolutions ran at 0.15-0.18x eager on the H100 (2026-12-05). Gathered
// into columns (im2col), the same sums are a batched matmul, which the SIMT
// matmul plan computes from shared-memory tiles, many outputs per thread,
// for one extra pass that writes the columns.
//
//===----------------------------------------------------------------------===//

#include "Im2Col.h"

#include "Convolutions.h"
#include "Gathers.h"

#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// The fewest filters (the product's filter dimension) that pay for the
/// columns: each gathered element is written once and read once more, and
/// feeds one multiply-add per filter. Measured on an H100 (2026-12-05): 3-D
/// convolutions of 16 and 24 filters over 3 channels ran 0.63-0.86x as fast
/// as their window plans this way, those of 32 filters and more 1.4-3.5x.
/// With long sums (K = channels x window of kLongK or more) fewer pay: on an
/// H100 (2026-12-06, bench/corpus/results/2026-12-06-h100-pad) 31 filters
/// over K = 864 ran 1.55x as fast as the window plan, over K = 75 0.65x.
constexpr int64_t kMinFilters = 32, kMinFiltersLongK = 24, kLongK = 256;
/// How many images the column bound must allow for when their number is
/// dynamic (all are gathered at once; the last-group scheme needs a static
/// count).
constexpr int64_t kDynamicImages = 256;
/// M and N tiles and the K step of the matmul plans (PadMatmulToTiles).
constexpr int64_t kTileMN = 64;
constexpr int64_t kTileK = 32;

/// The coordinates of `flat` over `sizes`, row-major. The first is what is
/// left: past the end when `flat` is (the callers clamp it).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<int64_t> sizes) {
  SmallVector<Value> coords(sizes.size());
  for (size_t d = sizes.size() - 1; d > 0; --d) {
    Value size = constantIndex(b, loc, sizes[d]);
    coords[d] = arith::RemUIOp::create(b, loc, flat, size);
    flat = arith::DivUIOp::create(b, loc, flat, size);
  }
  coords[0] = flat;
  return coords;
}

/// `value` clamped to [0, last].
Value clampIndex(OpBuilder &b, Location loc, Value value, int64_t last) {
  return qimeng::clampIndex(b, loc, value, constantIndex(b, loc, last));
}

/// Whether 0 <= `value` < `bound`: one unsigned comparison (a negative
/// index is a large unsigned one).
Value isWithin(OpBuilder &b, Location loc, Value value, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, value,
                               constantIndex(b, loc, bound));
}

/// Convolutions as batched matmuls (populateIm2ColPatterns).
struct ConvAsBatchMatmul : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  ConvAsBatchMatmul(MLIRContext *ctx, int64_t maxColumnBytes)
      : OpInterfaceRewritePattern(ctx), maxColumnBytes(maxColumnBytes) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ConvForm> form = matchConvOnTensors(op, rewriter);
    if (failed(form))
      return failure();
    bool last = form->channelsLast;
    Value input = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    Value init = op.getDpsInitOperand(0)->get();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto outType = cast<RankedTensorType>(init.getType());
    // Static sizes, but for a dynamic number of images (a frontend's batch).
    for (RankedTensorType type : {inputType, filterType, outType})
      if (!type.getElementType().isF32() ||
          llvm::is_contained(type.getShape(), 0))
        return rewriter.notifyMatchFailure(op, "not f32 of nonzero sizes");
    if (!filterType.hasStaticShape() ||
        !llvm::all_of(inputType.getShape().drop_front(),
                      ShapedType::isStatic) ||
        !llvm::all_of(outType.getShape().drop_front(), ShapedType::isStatic) ||
        inputType.isDynamicDim(0) != outType.isDynamicDim(0))
      return rewriter.notifyMatchFailure(
          op, "dynamic sizes other than the number of images (of the input "
              "and the output both)");
    int64_t rank = outType.getRank();
    unsigned spatial = rank - 2;
    // Where the channels and the spatial dimensions of the input and the
    // output are, and the filter's window and filter count.
    unsigned channelDim = last ? rank - 1 : 1;
    unsigned firstSpatial = last ? 1 : 2;
    ArrayRef<int64_t> filterShape = filterType.getShape();
    int64_t images = inputType.getDimSize(0);
    int64_t channels = inputType.getDimSize(channelDim);
    int64_t filters = form->filter == ConvForm::WCF ? filterShape.back()
                                                    : filterShape.front();
    ArrayRef<int64_t> window =
        form->filter == ConvForm::FCW   ? filterShape.drop_front(2)
        : form->filter == ConvForm::WCF ? filterShape.drop_back(2)
                                        : filterShape.slice(1, spatial);
    ArrayRef<int64_t> outSpatial =
        outType.getShape().slice(firstSpatial, spatial);
    int64_t k = channels * computeProduct(window);
    int64_t pixels = computeProduct(outSpatial);
    if (k < kMinTiledMatmulK)
      return rewriter.notifyMatchFailure(op, "few reads per output");
    if (filters < (k >= kLongK ? kMinFiltersLongK : kMinFilters))
      return rewriter.notifyMatchFailure(op, "few filters");
    int64_t kp = getPaddedSize(k, kTileK, 4);
    int64_t fp = getPaddedSize(filters, kTileMN, 16);
    int64_t pp = getPaddedSize(pixels, kTileMN, 16);
    // Columns over the bound are gathered for a group of images at a time,
    // into one buffer (each group's gather overwrites the last group's
    // columns after its product has read them).
    // A dynamic number of images is gathered at once, which the bound must
    // allow for kDynamicImages of them.
    constexpr int64_t kBytes = 4;
    bool dynamicImages = ShapedType::isDynamic(images);
    int64_t boundImages = dynamicImages ? kDynamicImages : 1;
    if (kp > maxColumnBytes / kBytes / pp / boundImages)
      return rewriter.notifyMatchFailure(
          op, dynamicImages ? "the columns of a dynamic number of images "
                              "could be too large"
                            : "one image's columns would be too large");
    int64_t groupImages =
        dynamicImages ? images
                      : std::min(images, maxColumnBytes / kBytes / pp / kp);
    int64_t groups = dynamicImages ? 1 : llvm::divideCeil(images, groupImages);
    if (!dynamicImages)
      groupImages = llvm::divideCeil(images, groups);

    // A constant-padded input is read through its source, the padding
    // selected where a window reaches past it.
    Value source = input;
    SmallVector<int64_t> low(spatial, 0);
    TypedAttr padAttr;
    Value padValue;
    if (auto pad = input.getDefiningOp<tensor::PadOp>()) {
      std::optional<SmallVector<int64_t>> lows =
          getConstantIntValues(pad.getMixedLowPad());
      std::optional<SmallVector<int64_t>> highs =
          getConstantIntValues(pad.getMixedHighPad());
      Value value = pad.getConstantPaddingValue();
      bool constantValue = value && matchPattern(value, m_Constant(&padAttr));
      if (lows && highs && value &&
          (constantValue || value.getParentRegion() != &pad.getRegion()) &&
          (*lows)[0] == 0 && (*highs)[0] == 0 && (*lows)[channelDim] == 0 &&
          (*highs)[channelDim] == 0 &&
          llvm::all_of(pad.getSourceType().getShape().drop_front(),
                       ShapedType::isStatic)) {
        source = pad.getSource();
        low.assign(lows->begin() + firstSpatial,
                   lows->begin() + firstSpatial + spatial);
        if (!constantValue)
          padValue = value;
      }
    }
    bool padded = source != input;
    ArrayRef<int64_t> sourceSpatial = cast<RankedTensorType>(source.getType())
                                          .getShape()
                                          .slice(firstSpatial, spatial);

    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    // The size of the gathered tensors' image dimension where it is dynamic:
    // the input's (the one the output's is equal to).
    SmallVector<Value> imageSizes;
    if (dynamicImages)
      imageSizes.push_back(tensor::DimOp::create(rewriter, loc, source, 0));
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    // k runs over (c, w...) channels first, over (w..., c) channels last:
    // along the input's contiguous dimension either way.
    SmallVector<int64_t> kSizes;
    if (!last)
      kSizes.push_back(channels);
    llvm::append_range(kSizes, window);
    if (last)
      kSizes.push_back(channels);
    // The channel and the window position of k.
    auto splitK = [&](OpBuilder &b, Location l, Value index) {
      SmallVector<Value> parts = delinearize(b, l, index, kSizes);
      Value channel =
          clampIndex(b, l, last ? parts.back() : parts.front(), channels - 1);
      SmallVector<Value> position(last ? ArrayRef<Value>(parts).drop_back()
                                       : ArrayRef<Value>(parts).drop_front());
      return std::make_pair(channel, position);
    };
    // A tensor [groupImages, rows, columns] (columns along k channels last,
    // rows along it channels first) whose element at (n, row, column) is
    // `element` where row < rowCount and column < columnCount, zero in the
    // padding to whole tiles; written into `into` when given.
    auto gatherPadded =
        [&](int64_t rows, int64_t rowCount, int64_t columns,
            int64_t columnCount,
            function_ref<Value(OpBuilder &, Location, Value, Value, Value)>
                element,
            Value into = Value()) -> Value {
      auto type = RankedTensorType::get({groupImages, rows, columns}, f32);
      if (!into)
        into = tensor::EmptyOp::create(rewriter, loc, type.getShape(), f32,
                                       imageSizes);
      return buildGather(
                 rewriter, loc, type, into,
                 [&](OpBuilder &b, Location l, ValueRange at, Value) -> Value {
                   Value inside = arith::AndIOp::create(
                       b, l, isWithin(b, l, at[1], rowCount),
                       isWithin(b, l, at[2], columnCount));
                   return arith::SelectOp::create(
                       b, l, inside, element(b, l, at[0], at[1], at[2]), zero);
                 })
          .getResult(0);
    };

    // The columns of group `group` of images: the input under window
    // element k of output pixel p, cols[n, k, p] channels first,
    // cols[n, p, k] channels last (image n of the group; the last group
    // repeats the last image where it has fewer).
    auto gatherColumns = [&](int64_t group, Value into) -> Value {
      return gatherPadded(
        last ? pp : kp, last ? pixels : k, last ? kp : pp, last ? k : pixels,
        [&](OpBuilder &b, Location l, Value image, Value row,
            Value column) -> Value {
          if (groups > 1)
            image = clampIndex(
                b, l,
                arith::AddIOp::create(
                    b, l, image, constantIndex(b, l, group * groupImages)),
                images - 1);
          Value kIndex = last ? column : row;
          Value pixel = last ? row : column;
          auto [channel, offsets] = splitK(b, l, kIndex);
          SmallVector<Value> o = delinearize(b, l, pixel, outSpatial);
          SmallVector<Value> positions;
          Value inBounds;
          for (unsigned i = 0; i < spatial; ++i) {
            Value position = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(b, l, o[i],
                                      constantIndex(b, l, form->strides[i])),
                arith::MulIOp::create(b, l, offsets[i],
                                      constantIndex(b, l, form->dilations[i])));
            if (low[i] != 0)
              position = arith::SubIOp::create(b, l, position,
                                               constantIndex(b, l, low[i]));
            if (padded) {
              Value ok = isWithin(b, l, position, sourceSpatial[i]);
              inBounds =
                  inBounds ? arith::AndIOp::create(b, l, inBounds, ok) : ok;
            }
            positions.push_back(
                clampIndex(b, l, position, sourceSpatial[i] - 1));
          }
          SmallVector<Value> indices = {image};
          if (!last)
            indices.push_back(channel);
          llvm::append_range(indices, positions);
          if (last)
            indices.push_back(channel);
          Value value = tensor::ExtractOp::create(b, l, source, indices);
          if (inBounds) {
            Value fill =
                padAttr ? arith::ConstantOp::create(b, l, padAttr).getResult()
                        : padValue;
            value = arith::SelectOp::create(b, l, inBounds, value, fill);
          }
          return value;
        }, into);
    };

    Value cols = gatherColumns(0, Value());

    // The filter as weights[n, f, k] channels first, weights[n, k, f]
    // channels last, once per image (linalg.batch_matmul reads both
    // operands per batch).
    Value weights = gatherPadded(
        last ? kp : fp, last ? k : filters, last ? fp : kp, last ? filters : k,
        [&](OpBuilder &b, Location l, Value, Value row, Value column) -> Value {
          Value kIndex = last ? row : column;
          Value f = last ? column : row;
          auto [channel, offsets] = splitK(b, l, kIndex);
          Value fc = clampIndex(b, l, f, filters - 1);
          SmallVector<Value> indices;
          switch (form->filter) {
          case ConvForm::FCW:
            indices = {fc, channel};
            llvm::append_range(indices, offsets);
            break;
          case ConvForm::WCF:
            indices.assign(offsets.begin(), offsets.end());
            indices.append({channel, fc});
            break;
          case ConvForm::FWC:
            indices = {fc};
            llvm::append_range(indices, offsets);
            indices.push_back(channel);
            break;
          }
          return tensor::ExtractOp::create(b, l, filter, indices);
        });

    // On whole tiles in one group the product accumulates into the output,
    // seen as (n, f, p) or (n, p, f); otherwise each group's into zeros,
    // its corner then added to the output.
    bool whole = fp == filters && pp == pixels && groups == 1;
    SmallVector<ReassociationIndices> flatPixels = {{0}};
    ReassociationIndices pixelDims;
    for (unsigned i = 0; i < spatial; ++i)
      pixelDims.push_back(firstSpatial + i);
    if (last)
      flatPixels.append({pixelDims, {rank - 1}});
    else
      flatPixels.append({{1}, pixelDims});
    SmallVector<Value> products;
    for (int64_t group = 0; group < groups; ++group) {
      if (group > 0)
        cols = gatherColumns(group, cols);
      Value productInit;
      if (whole) {
        productInit =
            tensor::CollapseShapeOp::create(rewriter, loc, init, flatPixels);
      } else {
        Value empty = tensor::EmptyOp::create(
            rewriter, loc,
            last ? ArrayRef<int64_t>{groupImages, pp, fp}
                 : ArrayRef<int64_t>{groupImages, fp, pp},
            f32, imageSizes);
        productInit =
            linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
      }
      SmallVector<Value> operands = last ? SmallVector<Value>{cols, weights}
                                         : SmallVector<Value>{weights, cols};
      products.push_back(linalg::BatchMatmulOp::create(rewriter, loc, operands,
                                                       ValueRange{productInit})
                             ->getResult(0));
    }
    Value result;
    if (whole) {
      result = tensor::ExpandShapeOp::create(rewriter, loc, outType,
                                             products.front(), flatPixels);
    } else {
      // The corner added to the output's initial values, in place (fused
      // into a broadcasting user, it reads them as an input first:
      // FuseElementwiseProducer).
      result =
          buildGather(
              rewriter, loc, outType, init,
              [&](OpBuilder &b, Location l, ValueRange at, Value acc) -> Value {
                Value pixel = at[firstSpatial];
                for (unsigned i = 1; i < spatial; ++i)
                  pixel = arith::AddIOp::create(
                      b, l,
                      arith::MulIOp::create(b, l, pixel,
                                            constantIndex(b, l, outSpatial[i])),
                      at[firstSpatial + i]);
                Value f = at[last ? rank - 1 : 1];
                // Image n is image n % groupImages of group n / groupImages.
                Value image = at[0], group;
                if (groups > 1) {
                  Value size = constantIndex(b, l, groupImages);
                  group = arith::DivUIOp::create(b, l, image, size);
                  image = arith::RemUIOp::create(b, l, image, size);
                }
                SmallVector<Value> corner =
                    last ? SmallVector<Value>{image, pixel, f}
                         : SmallVector<Value>{image, f, pixel};
                Value value;
                for (auto [g, product] : llvm::enumerate(products)) {
                  Value read = tensor::ExtractOp::create(b, l, product, corner);
                  value = !value ? read
                                 : arith::SelectOp::create(
                                       b, l,
                                       arith::CmpIOp::create(
                                           b, l, arith::CmpIPredicate::eq,
                                           group, constantIndex(b, l, g)),
                                       read, value);
                }
                return arith::AddFOp::create(b, l, value, acc);
              })
              .getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The most bytes the gathered columns may take at once.
  int64_t maxColumnBytes;
};

} // namespace

void mlir::qimeng::populateIm2ColPatterns(RewritePatternSet &patterns,
                                          int64_t maxColumnBytes) {
  patterns.add<ConvAsBatchMatmul>(patterns.getContext(), maxColumnBytes);
}
