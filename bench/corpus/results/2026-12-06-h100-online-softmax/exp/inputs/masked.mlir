#m2 = affine_map<(r, c) -> (r, c)>
// Softmax of a row whose first 5 entries are masked to -inf (attention's
// causal mask): the online sum starts from -inf elements.
func.func @masked(%x: tensor<64x300xf32>) -> tensor<64x300xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<64x300xf32>
  %m = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x300xf32>) outs(%e : tensor<64x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %lt = arith.cmpi ult, %j, %c5 : index
    %v = arith.select %lt, %ninf, %a : f32
    linalg.yield %v : f32
  } -> tensor<64x300xf32>
  %e2 = tensor.empty() : tensor<64x300xf32>
  %s = linalg.softmax dimension(1) ins(%m : tensor<64x300xf32>) outs(%e2 : tensor<64x300xf32>) -> tensor<64x300xf32>
  return %s : tensor<64x300xf32>
}
