// KernelBench level1/7_Matmul_with_small_K_dimension_.py (v0.1 shapes):
// C[16384x16384] = A[16384x32] * B[32x16384], f32 (a 1 GiB output).
func.func @small_k_matmul(%A: tensor<16384x32xf32>, %B: tensor<32x16384xf32>,
                          %C: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<16384x16384xf32>) -> tensor<16384x16384xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<16384x32xf32>, tensor<32x16384xf32>)
                     outs(%acc : tensor<16384x16384xf32>) -> tensor<16384x16384xf32>
  return %0 : tensor<16384x16384xf32>
}
