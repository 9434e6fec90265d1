// KernelBench level1/63_conv_standard_2D__square_input__square_kernel.py
// (v0.1 shapes): nn.Conv2d(3, 64, 3), stride 1, no padding, no bias, NCHW:
// x 16x3x256x256 * w 64x3x3x3 (FCHW) -> 16x64x254x254 f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
func.func @conv2d_3x3(%x: tensor<16x3x256x256xf32>, %w: tensor<64x3x3x3xf32>) -> tensor<16x64x254x254xf32> {
  %y = tensor.empty() : tensor<16x64x254x254xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<16x3x256x256xf32>, tensor<64x3x3x3xf32>)
      outs(%acc : tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32>
  return %0 : tensor<16x64x254x254xf32>
}
