func.func @gemm(%A: tensor<3000x4000xbf16>, %W: tensor<5000x4000xbf16>) -> tensor<3000x5000xbf16> {
  %empty = tensor.empty() : tensor<3000x5000xbf16>
  %zero = arith.constant 0.0 : bf16
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<3000x5000xbf16>) -> tensor<3000x5000xbf16>
  %r = linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%A, %W : tensor<3000x4000xbf16>, tensor<5000x4000xbf16>) outs(%acc : tensor<3000x5000xbf16>) -> tensor<3000x5000xbf16>
  return %r : tensor<3000x5000xbf16>
}
