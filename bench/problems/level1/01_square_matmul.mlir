// KernelBench level1/1_Square_matrix_multiplication_.py (v0.1 shapes):
// C = A * B with N = 2048, f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
func.func @square_matmul(%A: tensor<2048x2048xf32>, %B: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %C = tensor.empty() : tensor<2048x2048xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<2048x2048xf32>, tensor<2048x2048xf32>)
                     outs(%acc : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %0 : tensor<2048x2048xf32>
}
