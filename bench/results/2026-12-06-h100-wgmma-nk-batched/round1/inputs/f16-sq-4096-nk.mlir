func.func @gemm(%A: tensor<4096x4096xf16>, %W: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %empty = tensor.empty() : tensor<4096x4096xf16>
  %zero = arith.constant 0.0 : f16
  %acc = linalg.fill ins(%zero : f16) outs(%empty : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  %r = linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%A, %W : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%acc : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %r : tensor<4096x4096xf16>
}
