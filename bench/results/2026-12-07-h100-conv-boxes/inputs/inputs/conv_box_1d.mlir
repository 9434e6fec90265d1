// A 1-D convolution with stride 2 (torch.nn.Conv1d), a box of filters
// per thread.
func.func @conv1d(%x: tensor<16x5x4099xf32>, %w: tensor<12x5x4xf32>) -> tensor<16x12x2048xf32> {
  %e = tensor.empty() : tensor<16x12x2048xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x12x2048xf32>) -> tensor<16x12x2048xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
     ins(%x, %w : tensor<16x5x4099xf32>, tensor<12x5x4xf32>) outs(%f : tensor<16x12x2048xf32>) -> tensor<16x12x2048xf32>
  return %r : tensor<16x12x2048xf32>
}
