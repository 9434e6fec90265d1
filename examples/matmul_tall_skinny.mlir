// Tall-skinny matmul: 16384x64 output, K = 512.
func.func @matmul_tall_skinny(%A: tensor<16384x512xf32>, %B: tensor<512x64xf32>,
                              %C: tensor<16384x64xf32>) -> tensor<16384x64xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<16384x64xf32>) -> tensor<16384x64xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<16384x512xf32>, tensor<512x64xf32>)
                     outs(%acc : tensor<16384x64xf32>) -> tensor<16384x64xf32>
  return %0 : tensor<16384x64xf32>
}
