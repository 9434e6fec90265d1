func.func @odd_f16(%A: tensor<1031x136xf16>, %B: tensor<136x1000xf16>) -> tensor<1031x1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1031x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1031x1000xf32>) -> tensor<1031x1000xf32>
  %r = linalg.matmul ins(%A, %B : tensor<1031x136xf16>, tensor<136x1000xf16>) outs(%f : tensor<1031x1000xf32>) -> tensor<1031x1000xf32>
  return %r : tensor<1031x1000xf32>
}
