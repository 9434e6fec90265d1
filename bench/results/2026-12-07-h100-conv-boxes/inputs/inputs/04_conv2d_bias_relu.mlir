// Conv2d + bias + ReLU (QiMeng's level 2; shapes of KernelBench
// level2/1_Conv2D_ReLU_BiasAdd.py, whose second bias after the ReLU is left
// out): y = relu(conv2d(x, w) + b), NCHW, x 128x3x32x32, w 16x3x3x3 (FCHW),
// b 16 (the Conv2d bias), stride 1, no padding -> 128x16x30x30 f32.
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
#ch = affine_map<(n, f, h, w) -> (f)>
func.func @conv2d_bias_relu(%x: tensor<128x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>,
                            %y: tensor<128x16x30x30xf32>) -> tensor<128x16x30x30xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<128x16x30x30xf32>) -> tensor<128x16x30x30xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<128x3x32x32xf32>, tensor<16x3x3x3xf32>)
      outs(%acc : tensor<128x16x30x30xf32>) -> tensor<128x16x30x30xf32>
  %0 = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%c : tensor<128x16x30x30xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<128x16x30x30xf32>
  return %0 : tensor<128x16x30x30xf32>
}
