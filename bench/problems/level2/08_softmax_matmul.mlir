// Attention core (QiMeng's level 2; no KernelBench v0.1 problem):
// y = softmax(Q K^T / sqrt(64), dim -1) V with batch x heads folded to 32,
// sequence 128, head dimension 64: Q, K, V 32x128x64 -> 32x128x64 f32.
#q = affine_map<(b, m, n, d) -> (b, m, d)>
#k = affine_map<(b, m, n, d) -> (b, n, d)>
#s = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
func.func @softmax_matmul(%Q: tensor<32x128x64xf32>, %K: tensor<32x128x64xf32>, %V: tensor<32x128x64xf32>,
                          %y: tensor<32x128x64xf32>) -> tensor<32x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %se = tensor.empty() : tensor<32x128x128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<32x128x128xf32>) -> tensor<32x128x128xf32>
  %qk = linalg.generic {indexing_maps = [#q, #k, #s],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : tensor<32x128x64xf32>, tensor<32x128x64xf32>) outs(%s0 : tensor<32x128x128xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %p = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<32x128x128xf32>
  %scaled = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%qk : tensor<32x128x128xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %scale : f32
    linalg.yield %r : f32
  } -> tensor<32x128x128xf32>
  %pe = tensor.empty() : tensor<32x128x128xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<32x128x128xf32>)
                                   outs(%pe : tensor<32x128x128xf32>) -> tensor<32x128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<32x128x64xf32>) -> tensor<32x128x64xf32>
  %0 = linalg.batch_matmul ins(%p, %V : tensor<32x128x128xf32>, tensor<32x128x64xf32>)
                           outs(%acc : tensor<32x128x64xf32>) -> tensor<32x128x64xf32>
  return %0 : tensor<32x128x64xf32>
}
