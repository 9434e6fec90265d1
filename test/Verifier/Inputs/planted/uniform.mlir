// The reference: softmax of rows that hold one value each (a per-row value
// broadcast along 4096 columns): every probability is exactly 1/4096.
#bcast = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @uniform(%x: tensor<64xf32>) -> tensor<64x4096xf32> {
  %e = tensor.empty() : tensor<64x4096xf32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64x4096xf32>
  %0 = linalg.softmax dimension(1) ins(%b : tensor<64x4096xf32>) outs(%e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  return %0 : tensor<64x4096xf32>
}
