// linalg.dot of two 1000-vectors into a rank-0 result.
func.func @kernel(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %0 = linalg.dot ins(%a, %b : tensor<1000xf32>, tensor<1000xf32>) outs(%f : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
