// Wrong: the right softmax times 5.000000e-01.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %c = arith.constant 5.000000e-01 : f32
  %e = tensor.empty() : tensor<16x16384xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x16384xf32>) outs(%e : tensor<16x16384xf32>) -> tensor<16x16384xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<16x16384xf32>) outs(%e : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %c : f32
    linalg.yield %v : f32
  } -> tensor<16x16384xf32>
  return %1 : tensor<16x16384xf32>
}
