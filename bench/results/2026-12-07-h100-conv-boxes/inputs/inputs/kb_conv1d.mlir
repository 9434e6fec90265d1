// KernelBench level1/67 (v0.1 shapes): nn.Conv1d(3, 64, 3), x 16x3x512.
func.func @kb_conv1d(%x: tensor<16x3x512xf32>, %w: tensor<64x3x3xf32>) -> tensor<16x64x510xf32> {
  %e = tensor.empty() : tensor<16x64x510xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64x510xf32>) -> tensor<16x64x510xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
     ins(%x, %w : tensor<16x3x512xf32>, tensor<64x3x3xf32>) outs(%f : tensor<16x64x510xf32>) -> tensor<16x64x510xf32>
  return %r : tensor<16x64x510xf32>
}
