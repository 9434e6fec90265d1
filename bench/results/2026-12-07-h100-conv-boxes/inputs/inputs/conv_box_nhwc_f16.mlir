// Channels last in f16 (K = 27: no im2col): the filters are the innermost
// loop, a box of 8 filters by 2 pixels per thread.
func.func @conv_box_nhwc_f16(%x: tensor<8x130x130x3xf16>, %w: tensor<3x3x3x32xf16>) -> tensor<8x128x128x32xf16> {
  %e = tensor.empty() : tensor<8x128x128x32xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x128x128x32xf16>) -> tensor<8x128x128x32xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<8x130x130x3xf16>, tensor<3x3x3x32xf16>) outs(%f : tensor<8x128x128x32xf16>) -> tensor<8x128x128x32xf16>
  return %r : tensor<8x128x128x32xf16>
}
