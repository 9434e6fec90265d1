// KernelBench level1/21_Sigmoid.py (v0.1 shapes): y = 1 / (1 + exp(-x)) over
// 16x16384 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sigmoid(%x: tensor<16x16384xf32>, %y: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %one = arith.constant 1.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16384xf32>) outs(%y : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  return %0 : tensor<16x16384xf32>
}
