// y = x + bias (bias broadcast over rows), 4096x1024 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_add(%x: tensor<4096x1024xf32>, %bias: tensor<1024xf32>,
                    %y: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<4096x1024xf32>, tensor<1024xf32>) outs(%y : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
