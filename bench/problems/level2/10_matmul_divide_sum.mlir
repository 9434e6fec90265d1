// KernelBench level2/14_Gemm_Divide_Sum_Scaling.py (v0.1 shapes):
// y = sum((x W) / 2, dim 1, keepdim) * 1.5, x 128x10, W 10x20 (stored
// [in, out], the transpose of KernelBench's 20x10 weight) -> 128x1 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
func.func @matmul_divide_sum(%x: tensor<128x10xf32>, %w: tensor<10x20xf32>,
                             %y: tensor<128x1xf32>) -> tensor<128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %scale = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<128x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x20xf32>) -> tensor<128x20xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x10xf32>, tensor<10x20xf32>)
                      outs(%acc : tensor<128x20xf32>) -> tensor<128x20xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%y : tensor<128x1xf32>) -> tensor<128x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<128x20xf32>) outs(%s0 : tensor<128x1xf32>) {
  ^bb0(%v: f32, %s: f32):
    %d = arith.divf %v, %two : f32
    %r = arith.addf %s, %d : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%sum : tensor<128x1xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %scale : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  return %0 : tensor<128x1xf32>
}
