// A convolution with few outputs and long sums, written as torch-mlir does
// with a bias, its result returned: 8 filters over 96 channels of
// 16 32x32 images (padding 1). qimeng-split-reductions splits the channels
// into parts whose partial outputs a second kernel adds onto the bias.
#b = affine_map<(n, f, h, w) -> (f)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @conv_split_bias(%x: tensor<16x96x32x32xf32>, %w: tensor<8x96x3x3xf32>, %bias: tensor<8xf32>) -> tensor<16x8x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<16x96x32x32xf32> to tensor<16x96x34x34xf32>
  %e = tensor.empty() : tensor<16x8x32x32xf32>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%bias : tensor<8xf32>) outs(%e : tensor<16x8x32x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x8x32x32xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%padded, %w : tensor<16x96x34x34xf32>, tensor<8x96x3x3xf32>) outs(%init : tensor<16x8x32x32xf32>) -> tensor<16x8x32x32xf32>
  return %r : tensor<16x8x32x32xf32>
}
