// A depthwise convolution (torch's groups = channels, its 16x1x3x3 weight
// without the unit dimension), stride 1, returned: no filter loop, each
// thread computes a box of pixels along W that shares the weights' reads.
func.func @conv_box_depthwise(%x: tensor<8x16x130x130xf32>, %w: tensor<16x3x3xf32>) -> tensor<8x16x128x128xf32> {
  %e = tensor.empty() : tensor<8x16x128x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<8x16x130x130xf32>, tensor<16x3x3xf32>) outs(%f : tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32>
  return %r : tensor<8x16x128x128xf32>
}
