// GEMM + scale + leaky ReLU (KernelBench level 2 style), 1024x1024x1024 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gemm_scale_leaky_relu(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                                 %y: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 2.0 : f32
  %slope = arith.constant 0.01 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                      outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mm : tensor<1024x1024xf32>) {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %scale : f32
    %neg = arith.mulf %s, %slope : f32
    %pos = arith.cmpf ogt, %s, %zero : f32
    %r = arith.select %pos, %s, %neg : f32
    linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
