func.func @gemm(%A: tensor<8192x8192xbf16>, %W: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %empty = tensor.empty() : tensor<8192x8192xbf16>
  %zero = arith.constant 0.0 : bf16
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %r = linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%A, %W : tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) outs(%acc : tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %r : tensor<8192x8192xbf16>
}
