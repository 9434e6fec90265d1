// A grouped convolution (4 groups of 16 filters over 2 channels each):
// each thread computes a box of filters of one group.
func.func @grouped(%x: tensor<2x4x2x70x70xf32>, %w: tensor<16x4x2x3x3xf32>) -> tensor<2x4x16x68x68xf32> {
  %e = tensor.empty() : tensor<2x4x16x68x68xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x16x68x68xf32>) -> tensor<2x4x16x68x68xf32>
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<2x4x2x70x70xf32>, tensor<16x4x2x3x3xf32>) outs(%f : tensor<2x4x16x68x68xf32>) -> tensor<2x4x16x68x68xf32>
  return %r : tensor<2x4x16x68x68xf32>
}
