// KernelBench level1/2_Standard_matrix_multiplication_.py (v0.1 shapes):
// C[1024x2048] = A[1024x4096] * B[4096x2048], f32.
func.func @rect_matmul(%A: tensor<1024x4096xf32>, %B: tensor<4096x2048xf32>,
                       %C: tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<1024x4096xf32>, tensor<4096x2048xf32>)
                     outs(%acc : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  return %0 : tensor<1024x2048xf32>
}
