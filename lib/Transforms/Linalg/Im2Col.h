//===- Im2Col.h - Convolutions as batched matmuls ---------------*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_IM2COL_H
#define QIMENG_LIB_TRANSFORMS_LINALG_IM2COL_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds the pattern that writes a convolution (f32, static shapes) whose
/// outputs each read 32 inputs or more as a batched matmul the matmul plans
/// take. Channels first (linalg.conv_1d_ncw_fcw, conv_2d_nchw_fchw,
/// conv_3d_ncdhw_fcdhw: what torch-mlir emits):
///   cols[n, k, p] = input[n, c, o * stride + w * dilation - low]
///                   (k = (c, w...), p = (o...); zero past the ends),
///   weights[n, f, k] = filter[f, c, w...] (the filter, once per image),
///   out[n, f, p] = init[n, f, p] + sum over k of weights * cols
/// (linalg.batch_matmul). Channels last (conv_1d_nwc_wcf, conv_2d_nhwc_hwcf,
/// conv_2d_nhwc_fhwc, conv_3d_ndhwc_dhwcf: IREE's and StableHLO's) the same
/// with k = (w..., c), cols[n, p, k] times weights[n, k, f] into
/// out[n, p, f]. The gathers read a constant-padded input's source
/// (`tensor.pad`) directly, and pad K, the pixels and the filters to whole
/// tiles of the matmul plans; the product's corner is then added into the
/// convolution's output, else the product accumulates into it in place.
/// Columns over `maxColumnBytes` are gathered for a group of images at a
/// time, each group into the buffer of the one before (after its product
/// has read it), each group's product into zeros; the output then takes
/// image n's from group n / groupImages. Not when one image's columns
/// exceed `maxColumnBytes`, when there are fewer than 32 filters, or when
/// each output reads fewer than 32 inputs (the window plans take those).
void populateIm2ColPatterns(RewritePatternSet &patterns,
                            int64_t maxColumnBytes);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_IM2COL_H
