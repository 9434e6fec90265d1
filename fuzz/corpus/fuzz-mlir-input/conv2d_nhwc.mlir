// 3x3 convolution, NHWC input, HWCF filter, stride 1, no padding:
// 8x66x66x64 * 3x3x64x128 -> 8x64x64x128 f32.
func.func @conv2d_nhwc(%x: tensor<8x66x66x64xf32>, %w: tensor<3x3x64x128xf32>,
                       %y: tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x66x66x64xf32>, tensor<3x3x64x128xf32>)
      outs(%acc : tensor<8x64x64x128xf32>) -> tensor<8x64x64x128xf32>
  return %0 : tensor<8x64x64x128xf32>
}
