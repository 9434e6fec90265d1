// Linear + sigmoid + sum over the features (QiMeng's level 2; shapes of
// KernelBench level2/45_Gemm_Sigmoid_Sum_LogSumExp.py, without its final
// logsumexp): y = sum(sigmoid(x W + b), dim 1), x 128x10, W 10x20 (stored
// [in, out]), b 20 -> 128, f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @linear_sigmoid_sum(%x: tensor<128x10xf32>, %w: tensor<10x20xf32>, %b: tensor<20xf32>,
                              %y: tensor<128xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<128x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x20xf32>) -> tensor<128x20xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x10xf32>, tensor<10x20xf32>)
                      outs(%acc : tensor<128x20xf32>) -> tensor<128x20xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%y : tensor<128xf32>) -> tensor<128xf32>
  %0 = linalg.generic {indexing_maps = [#id, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mm, %b : tensor<128x20xf32>, tensor<20xf32>) outs(%s0 : tensor<128xf32>) {
  ^bb0(%v: f32, %bias: f32, %sum: f32):
    %t = arith.addf %v, %bias : f32
    %n = arith.negf %t : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %sg = arith.divf %one, %d : f32
    %r = arith.addf %sum, %sg : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}
