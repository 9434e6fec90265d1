func.func @matvec_f16(%A: tensor<?x777xf16>, %x: tensor<777xf16>) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %A, %c0 : tensor<?x777xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty(%m) : tensor<?xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<?xf16>) -> tensor<?xf16>
  %r = linalg.matvec ins(%A, %x : tensor<?x777xf16>, tensor<777xf16>) outs(%f : tensor<?xf16>) -> tensor<?xf16>
  return %r : tensor<?xf16>
}
