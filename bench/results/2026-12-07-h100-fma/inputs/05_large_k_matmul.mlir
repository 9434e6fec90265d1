// KernelBench level1/6_Matmul_with_large_K_dimension_.py (v0.1 shapes):
// C[256x256] = A[256x131072] * B[131072x256], f32.
func.func @large_k_matmul(%A: tensor<256x131072xf32>, %B: tensor<131072x256xf32>,
                          %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<256x131072xf32>, tensor<131072x256xf32>)
                     outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
