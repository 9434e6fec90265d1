// 2x2 max pooling, stride 2, NHWC: 16x128x128x64 -> 16x64x64x64 f32.
func.func @maxpool(%x: tensor<16x128x128x64xf32>, %y: tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%y : tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<16x128x128x64xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32>
  return %0 : tensor<16x64x64x64xf32>
}
