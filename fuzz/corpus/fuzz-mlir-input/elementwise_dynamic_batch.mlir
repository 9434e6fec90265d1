// A dynamic outer (batch) dimension: y = x * 2 + 1 over ?x1024 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_shift(%x: tensor<?x1024xf32>, %y: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x1024xf32>) outs(%y : tensor<?x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %two : f32
    %r = arith.addf %m, %one : f32
    linalg.yield %r : f32
  } -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
