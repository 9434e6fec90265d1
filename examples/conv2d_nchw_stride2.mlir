// 3x3 convolution, NCHW input, FCHW filter, stride 2:
// 8x64x129x129 * 128x64x3x3 -> 8x128x64x64 f32.
func.func @conv2d_nchw(%x: tensor<8x64x129x129xf32>, %w: tensor<128x64x3x3xf32>,
                       %y: tensor<8x128x64x64xf32>) -> tensor<8x128x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<8x128x64x64xf32>) -> tensor<8x128x64x64xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<8x64x129x129xf32>, tensor<128x64x3x3xf32>)
      outs(%acc : tensor<8x128x64x64xf32>) -> tensor<8x128x64x64xf32>
  return %0 : tensor<8x128x64x64xf32>
}
