// KernelBench level2/40_Matmul_Scaling_ResidualAdd.py (v0.1 shapes):
// t = x W + b; y = t * 0.5 + t (the residual is the Linear's own output, as
// in KernelBench), x 128x64, W 64x128 (stored [in, out]), b 128, f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @matmul_residual_add(%x: tensor<128x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>,
                               %y: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.5 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x64xf32>, tensor<64x128xf32>)
                      outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %0 = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128xf32>) outs(%mm : tensor<128x128xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %t = arith.addf %v, %bias : f32
    %s = arith.mulf %t, %scale : f32
    %r = arith.addf %s, %t : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
