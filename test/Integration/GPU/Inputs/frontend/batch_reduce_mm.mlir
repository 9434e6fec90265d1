// linalg.batch_reduce_matmul: a sum of 3 products into one 40x60 result, returned.
func.func @kernel(%a: tensor<3x40x50xf32>, %b: tensor<3x50x60xf32>) -> tensor<40x60xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x60xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<40x60xf32>) -> tensor<40x60xf32>
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x40x50xf32>, tensor<3x50x60xf32>) outs(%f : tensor<40x60xf32>) -> tensor<40x60xf32>
  return %0 : tensor<40x60xf32>
}
