// linalg.pooling_nchw_max, 3x3 window, stride 2.
func.func @kernel(%x: tensor<2x5x17x17xf32>) -> tensor<2x5x8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x5x8x8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
     ins(%x, %w : tensor<2x5x17x17xf32>, tensor<3x3xf32>) outs(%f : tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32>
  return %0 : tensor<2x5x8x8xf32>
}
