func.func @linear_nt(%x: tensor<?x256xbf16>, %w: tensor<520x256xbf16>) -> tensor<?x520xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x256xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty(%m) : tensor<?x520xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<?x520xbf16>) -> tensor<?x520xbf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<?x256xbf16>, tensor<520x256xbf16>) outs(%f : tensor<?x520xbf16>) -> tensor<?x520xbf16>
  return %r : tensor<?x520xbf16>
}
