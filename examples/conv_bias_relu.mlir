// Conv2d + bias + ReLU (KernelBench level 2 style), NHWC, 3x3, no padding.
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @conv_bias_relu(%x: tensor<8x34x34x64xf32>, %w: tensor<3x3x64x128xf32>, %b: tensor<128xf32>,
                          %y: tensor<8x32x32x128xf32>) -> tensor<8x32x32x128xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<8x32x32x128xf32>) -> tensor<8x32x32x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x34x34x64xf32>, tensor<3x3x64x128xf32>)
      outs(%acc : tensor<8x32x32x128xf32>) -> tensor<8x32x32x128xf32>
  %0 = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<128xf32>) outs(%c : tensor<8x32x32x128xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32x32x128xf32>
  return %0 : tensor<8x32x32x128xf32>
}
