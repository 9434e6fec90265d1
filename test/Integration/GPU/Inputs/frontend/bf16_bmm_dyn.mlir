// A bf16 batch_matmul over a dynamic batch into a bf16 result; run with shapes.
func.func @kernel(%a: tensor<?x64x128xbf16>, %b: tensor<?x128x96xbf16>) -> tensor<?x64x96xbf16> {
  %z = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x64x128xbf16>
  %e = tensor.empty(%d) : tensor<?x64x96xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<?x64x96xbf16>) -> tensor<?x64x96xbf16>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<?x64x128xbf16>, tensor<?x128x96xbf16>) outs(%f : tensor<?x64x96xbf16>) -> tensor<?x64x96xbf16>
  return %0 : tensor<?x64x96xbf16>
}
