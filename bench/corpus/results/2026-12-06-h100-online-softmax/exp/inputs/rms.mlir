// RMSNorm with a weight: y = x * rsqrt(mean(x^2) + eps) * w; 4096x1024 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm(%x: tensor<4096x1024xf32>, %w: tensor<1024xf32>, %ss: tensor<4096xf32>,
                   %y: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %s0 = linalg.fill ins(%zero : f32) outs(%ss : tensor<4096xf32>) -> tensor<4096xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %a2 = arith.mulf %a, %a : f32
    %r = arith.addf %a2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sq, %w : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<1024xf32>) outs(%y : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %q: f32, %wt: f32, %o: f32):
    %ms = arith.divf %q, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %t = arith.mulf %a, %rs : f32
    %r = arith.mulf %t, %wt : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
