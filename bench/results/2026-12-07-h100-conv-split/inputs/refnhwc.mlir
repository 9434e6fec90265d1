func.func @nhwc(%x: tensor<4x18x18x256xf32>, %w: tensor<3x3x256x16xf32>) -> tensor<4x16x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<4x18x18x256xf32>, tensor<3x3x256x16xf32>) outs(%init : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  return %0 : tensor<4x16x16x16xf32>
}
