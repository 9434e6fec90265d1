// Attention scores as torch-mlir writes (q @ k.transpose(-2, -1)) * scale on
// f16 tensors: the keys transposed by a linalg.transpose, a batched matmul
// into a zero-filled f16 tensor, then the scale (1 / sqrt(80)). 12 heads of
// 1000 queries and keys, head size 80 (not a multiple of the 64-deep K
// step). On sm_90 one wgmma kernel: the keys read (b, n, k) as stored, k-major
// like the queries, and the scale applied to the f32 accumulators before the
// one rounding to f16.
#map = affine_map<(b, m, n) -> (b, m, n)>
func.func @scores(%q: tensor<12x1000x80xf16>, %k: tensor<12x1000x80xf16>) -> tensor<12x1000x1000xf16> {
  %zero = arith.constant 0.0 : f16
  %te = tensor.empty() : tensor<12x80x1000xf16>
  %kt = linalg.transpose ins(%k : tensor<12x1000x80xf16>) outs(%te : tensor<12x80x1000xf16>) permutation = [0, 2, 1]
  %empty = tensor.empty() : tensor<12x1000x1000xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%empty : tensor<12x1000x1000xf16>) -> tensor<12x1000x1000xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x1000x80xf16>, tensor<12x80x1000xf16>)
                           outs(%acc : tensor<12x1000x1000xf16>) -> tensor<12x1000x1000xf16>
  %scaled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<12x1000x1000xf16>) outs(%empty : tensor<12x1000x1000xf16>) {
  ^bb0(%x: f16, %o: f16):
    %c = arith.constant 0.1118 : f16
    %y = arith.mulf %x, %c : f16
    linalg.yield %y : f16
  } -> tensor<12x1000x1000xf16>
  return %scaled : tensor<12x1000x1000xf16>
}
