// Attention's causal softmax, as torch-mlir writes scaled scores with a
// causal mask before linalg.softmax: 4 heads x 256 queries x 256 keys, f32,
// scale 1/8, keys after the query masked to -inf (row q keeps q + 1 keys;
// the first row a single one).
#id = affine_map<(h, q, k) -> (h, q, k)>
func.func @causal_softmax(%scores: tensor<4x256x256xf32>) -> tensor<4x256x256xf32> {
  %scale = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x256x256xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<4x256x256xf32>) outs(%e : tensor<4x256x256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %q = linalg.index 1 : index
    %k = linalg.index 2 : index
    %future = arith.cmpi ugt, %k, %q : index
    %scaled = arith.mulf %s, %scale : f32
    %v = arith.select %future, %ninf, %scaled : f32
    linalg.yield %v : f32
  } -> tensor<4x256x256xf32>
  %e2 = tensor.empty() : tensor<4x256x256xf32>
  %p = linalg.softmax dimension(2) ins(%masked : tensor<4x256x256xf32>) outs(%e2 : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  return %p : tensor<4x256x256xf32>
}
