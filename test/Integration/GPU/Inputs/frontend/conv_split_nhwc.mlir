// A channels-last convolution with few outputs and long sums, its output
// passed in: 16 filters over 256 channels of 4 16x16 images, stride 1.
// qimeng-split-reductions splits the channels into parts whose partial
// outputs a second kernel adds up.
func.func @conv_split_nhwc(%x: tensor<4x18x18x256xf32>, %w: tensor<3x3x256x16xf32>, %out: tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<4x18x18x256xf32>, tensor<3x3x256x16xf32>) outs(%init : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  return %r : tensor<4x16x16x16xf32>
}
