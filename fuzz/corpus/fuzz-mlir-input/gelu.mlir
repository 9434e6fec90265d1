// GELU (tanh approximation, as torch.nn.functional.gelu(approximate="tanh"))
// over 4096x4096 f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.7978845608 : f32
  %k = arith.constant 0.044715 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x4096xf32>) outs(%y : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32):
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %t0 = arith.mulf %a3, %k : f32
    %t1 = arith.addf %a, %t0 : f32
    %t2 = arith.mulf %t1, %c : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %a, %t4 : f32
    %r = arith.mulf %t5, %half : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
