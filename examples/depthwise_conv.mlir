// Depthwise 3x3 convolution, NHWC: 8x66x66x128 * 3x3x128 -> 8x64x64x128 f32.
func.func @depthwise_conv(%x: tensor<8x66x66x128xf32>, %w: tensor<3x3x128xf32>,
                          %y: tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x66x66x128xf32>, tensor<3x3x128xf32>)
      outs(%acc : tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32>
  return %0 : tensor<8x64x64x128xf32>
}
