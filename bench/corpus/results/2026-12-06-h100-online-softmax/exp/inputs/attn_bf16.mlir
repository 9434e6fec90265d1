// Attention scores (batch x heads x queries, keys) in bf16, scaled and
// softmaxed over the keys.
#id = affine_map<(b, q, k) -> (b, q, k)>
func.func @kernel(%x: tensor<64x1024x1024xbf16>) -> tensor<64x1024x1024xbf16> {
  %scale = arith.constant 0.125 : bf16
  %e = tensor.empty() : tensor<64x1024x1024xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<64x1024x1024xbf16>) outs(%e : tensor<64x1024x1024xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %v = arith.mulf %a, %scale : bf16
    linalg.yield %v : bf16
  } -> tensor<64x1024x1024xbf16>
  %e2 = tensor.empty() : tensor<64x1024x1024xbf16>
  %s = linalg.softmax dimension(2) ins(%y : tensor<64x1024x1024xbf16>) outs(%e2 : tensor<64x1024x1024xbf16>) -> tensor<64x1024x1024xbf16>
  return %s : tensor<64x1024x1024xbf16>
}
