//===- TransposedConv.h - Transposed convolutions by phases ----*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_TRANSPOSEDCONV_H
#define QIMENG_LIB_TRANSFORMS_LINALG_TRANSPOSEDCONV_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds the pattern that computes a transposed convolution over its input
/// rather than over the input spread out with zeros. torch-mlir writes
/// `ConvTranspose` as a stride-1 convolution (of the flipped filter) over
/// `tensor.insert_slice %x into zeros[.., p, ..] [.., 1, ..] [.., s, ..]`:
/// of the s^d input positions each output reads in a window, all but one in
/// s along each dimension are zeros. The outputs o = s * j + r of one phase
/// r read x only at the window taps k with (r + d * k - p) % s == 0, which
/// are every (s / gcd(d, s))-th tap from the first such one, k0, and there
///   out[s * j + r] = sum over t of x[j + c + (d / gcd(d, s)) * t]
///                                  * w[k0 + (s / gcd(d, s)) * t]
/// (c = (r + d * k0 - p) / s): a stride-1 convolution of the original x,
/// padded with zeros where c or the last taps reach past it, by the
/// phase's taps of the filter, at dilation d / gcd(d, s). Each phase is one
/// such convolution into zeros, and one gather adds the phase of each output
/// to the original destination. The phase convolutions then go the way of
/// any other convolution (im2col, window plans): s^d times fewer
/// multiply-adds, and a column buffer s^d times smaller.
/// For the convolutions of `getConvForm` with strides 1, static shapes and
/// an input inserted into a zero fill (or a zero splat) along its spatial
/// dimensions only, every s-th element along one of them at least (with all
/// s = 1 the insert is a padding, left to im2col and the window plans).
void populateTransposedConvPatterns(RewritePatternSet &patterns);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_TRANSPOSEDCONV_H
