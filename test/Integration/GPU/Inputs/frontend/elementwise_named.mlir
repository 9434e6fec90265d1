// linalg.elementwise add then exp, odd sizes.
func.func @kernel(%a: tensor<37x129xf32>, %b: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %e = tensor.empty() : tensor<37x129xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %b : tensor<37x129xf32>, tensor<37x129xf32>) outs(%e : tensor<37x129xf32>) -> tensor<37x129xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%0 : tensor<37x129xf32>) outs(%e : tensor<37x129xf32>) -> tensor<37x129xf32>
  return %1 : tensor<37x129xf32>
}
