// linalg.contract: a bf16 matmul into an f32 result.
func.func @kernel(%a: tensor<64x96xbf16>, %b: tensor<96x80xbf16>) -> tensor<64x80xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x80xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x80xf32>) -> tensor<64x80xf32>
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %b : tensor<64x96xbf16>, tensor<96x80xbf16>) outs(%f : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %0 : tensor<64x80xf32>
}
