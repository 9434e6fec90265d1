// A convolution written as torch-mlir does with a bias: the output starts as
// the bias broadcast over an output argument; stride 2, 3 input channels. The
// planner gives each thread a box of filters and pixels (getConvolutionBox).
#b = affine_map<(n, f, h, w) -> (f)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
func.func @bias(%x: tensor<8x3x258x258xf32>, %w: tensor<24x3x3x3xf32>, %bias: tensor<24xf32>, %out: tensor<8x24x128x128xf32>) -> tensor<8x24x128x128xf32> {
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%bias : tensor<24xf32>) outs(%out : tensor<8x24x128x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x24x128x128xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%x, %w : tensor<8x3x258x258xf32>, tensor<24x3x3x3xf32>) outs(%init : tensor<8x24x128x128xf32>) -> tensor<8x24x128x128xf32>
  return %r : tensor<8x24x128x128xf32>
}
