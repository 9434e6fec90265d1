// LayerNorm over the last dimension (no affine): 4096 rows of 1024 f32, eps 1e-5.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @layernorm(%x: tensor<4096x1024xf32>, %mean: tensor<4096xf32>, %var: tensor<4096xf32>,
                     %y: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %s0 = linalg.fill ins(%zero : f32) outs(%mean : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %v0 = linalg.fill ins(%zero : f32) outs(%var : tensor<4096xf32>) -> tensor<4096xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%v0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %a, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<4096xf32>) outs(%y : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %o: f32):
    %mu = arith.divf %s, %n : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %mu : f32
    %r = arith.mulf %d, %rs : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
