// A 3x3 f32 convolution over one channel: a thread per output, each a
// scalar sum of 9 products (test/Transforms/GPU/contract-float-ops.mlir).
func.func @window(%x: tensor<1x1x34x66xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x1x34x66xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32>
  return %r : tensor<1x1x32x64xf32>
}
