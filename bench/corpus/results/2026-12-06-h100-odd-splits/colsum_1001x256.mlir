func.func @colsum(%x: tensor<1001x256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<1001x256xf32>) outs(%f : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
