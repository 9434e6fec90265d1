func.func @gemm(%A: tensor<?x4096xbf16>, %W: tensor<11008x4096xbf16>) -> tensor<?x11008xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %A, %c0 : tensor<?x4096xbf16>
  %empty = tensor.empty(%m) : tensor<?x11008xbf16>
  %zero = arith.constant 0.0 : bf16
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<?x11008xbf16>) -> tensor<?x11008xbf16>
  %te = tensor.empty() : tensor<4096x11008xbf16>
  %wt = linalg.transpose ins(%W : tensor<11008x4096xbf16>) outs(%te : tensor<4096x11008xbf16>) permutation = [1, 0]
  %r = linalg.matmul ins(%A, %wt : tensor<?x4096xbf16>, tensor<4096x11008xbf16>) outs(%acc : tensor<?x11008xbf16>) -> tensor<?x11008xbf16>
  return %r : tensor<?x11008xbf16>
}
