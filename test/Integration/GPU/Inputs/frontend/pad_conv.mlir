// tensor.pad then linalg.conv_2d_nchw_fchw (torch-mlir's padded Conv2d), 8 filters.
func.func @kernel(%x: tensor<2x3x31x31xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<2x8x31x31xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32 } : tensor<2x3x31x31xf32> to tensor<2x3x33x33xf32>
  %e = tensor.empty() : tensor<2x8x31x31xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x31x31xf32>) -> tensor<2x8x31x31xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%p, %w : tensor<2x3x33x33xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<2x8x31x31xf32>) -> tensor<2x8x31x31xf32>
  return %c : tensor<2x8x31x31xf32>
}
