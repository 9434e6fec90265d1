// Max over the first dimension (a column reduction): 8192x4096 f32 -> 4096.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @reduce_max(%x: tensor<8192x4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = linalg.fill ins(%ninf : f32) outs(%y : tensor<4096xf32>) -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8192x4096xf32>) outs(%init : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
