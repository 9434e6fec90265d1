// KernelBench level1/82_conv_depthwise_2D_square_input_square_kernel.py
// (v0.1 shapes): nn.Conv2d(3, 3, 3, groups=3), stride 1, no padding, no bias,
// NCHW: x 16x3x256x256 * w 3x3x3 (C, KH, KW; torch's 3x1x3x3 weight without
// its unit dimension) -> 16x3x254x254 f32.
func.func @depthwise_conv2d(%x: tensor<16x3x256x256xf32>, %w: tensor<3x3x3xf32>,
                            %y: tensor<16x3x254x254xf32>) -> tensor<16x3x254x254xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<16x3x254x254xf32>) -> tensor<16x3x254x254xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<16x3x256x256xf32>, tensor<3x3x3xf32>)
      outs(%acc : tensor<16x3x254x254xf32>) -> tensor<16x3x254x254xf32>
  return %0 : tensor<16x3x254x254xf32>
}
