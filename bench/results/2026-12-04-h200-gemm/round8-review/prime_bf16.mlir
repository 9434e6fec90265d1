func.func @prime_bf16(%A: tensor<257x131xbf16>, %B: tensor<131x263xbf16>) -> tensor<257x263xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<257x263xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<257x263xbf16>) -> tensor<257x263xbf16>
  %r = linalg.matmul ins(%A, %B : tensor<257x131xbf16>, tensor<131x263xbf16>) outs(%f : tensor<257x263xbf16>) -> tensor<257x263xbf16>
  return %r : tensor<257x263xbf16>
}
