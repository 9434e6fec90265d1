// Sigmoid over a 16M-element f32 vector.
#id = affine_map<(d0) -> (d0)>
func.func @sigmoid(%x: tensor<16777216xf32>, %y: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %one = arith.constant 1.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16777216xf32>) outs(%y : tensor<16777216xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16777216xf32>
  return %0 : tensor<16777216xf32>
}
