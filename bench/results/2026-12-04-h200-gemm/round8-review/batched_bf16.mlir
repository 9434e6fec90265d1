func.func @bmm_bf16(%A: tensor<3x129x72xbf16>, %B: tensor<3x72x200xbf16>) -> tensor<3x129x200xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<3x129x200xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<3x129x200xbf16>) -> tensor<3x129x200xbf16>
  %r = linalg.batch_matmul ins(%A, %B : tensor<3x129x72xbf16>, tensor<3x72x200xbf16>) outs(%f : tensor<3x129x200xbf16>) -> tensor<3x129x200xbf16>
  return %r : tensor<3x129x200xbf16>
}
