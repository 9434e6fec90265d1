// A convolution with few outputs and long sums, written as torch-mlir does
// with a bias, in f16, its result returned: 8 filters over 96 channels of
// 16 32x32 images (padding 1). qimeng-split-reductions splits the channels
// into parts whose partial outputs a second kernel adds onto the bias.
#b = affine_map<(n, f, h, w) -> (f)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @conv_split_f16(%x: tensor<16x96x32x32xf16>, %w: tensor<8x96x3x3xf16>, %bias: tensor<8xf16>) -> tensor<16x8x32x32xf16> {
  %zero = arith.constant 0.0 : f16
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<16x96x32x32xf16> to tensor<16x96x34x34xf16>
  %e = tensor.empty() : tensor<16x8x32x32xf16>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%bias : tensor<8xf16>) outs(%e : tensor<16x8x32x32xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<16x8x32x32xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%padded, %w : tensor<16x96x34x34xf16>, tensor<8x96x3x3xf16>) outs(%init : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
  return %r : tensor<16x8x32x32xf16>
}
