// Sum over the last dimension: 4096x8192 f32 -> 4096.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reduce_sum(%x: tensor<4096x8192xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%y : tensor<4096xf32>) -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x8192xf32>) outs(%init : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
