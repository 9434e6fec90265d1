// Wrong: an off-by-one window, 2x1 instead of 2x2 (same output shape).
func.func @maxpool(%x: tensor<2x32x32x16xf32>) -> tensor<2x16x16x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x1xf32>
  %e = tensor.empty() : tensor<2x16x16x16xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<2x32x32x16xf32>, tensor<2x1xf32>)
      outs(%acc : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  return %0 : tensor<2x16x16x16xf32>
}
