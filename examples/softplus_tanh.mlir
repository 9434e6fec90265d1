// Softplus then tanh, two elementwise ops (f16 data).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softplus_tanh(%x: tensor<2048x2048xf16>, %t: tensor<2048x2048xf16>,
                         %y: tensor<2048x2048xf16>) -> tensor<2048x2048xf16> {
  %one = arith.constant 1.0 : f16
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x2048xf16>) outs(%t : tensor<2048x2048xf16>) {
  ^bb0(%a: f16, %b: f16):
    %e = math.exp %a : f16
    %s = arith.addf %e, %one : f16
    %l = math.log %s : f16
    linalg.yield %l : f16
  } -> tensor<2048x2048xf16>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<2048x2048xf16>) outs(%y : tensor<2048x2048xf16>) {
  ^bb0(%a: f16, %b: f16):
    %r = math.tanh %a : f16
    linalg.yield %r : f16
  } -> tensor<2048x2048xf16>
  return %1 : tensor<2048x2048xf16>
}
