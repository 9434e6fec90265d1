// Matmul whose sizes are not multiples of the tile sizes (1000x1000x1000 f32).
func.func @matmul_irregular(%A: tensor<1000x1000xf32>, %B: tensor<1000x1000xf32>,
                            %C: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<1000x1000xf32>, tensor<1000x1000xf32>)
                     outs(%acc : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %0 : tensor<1000x1000xf32>
}
