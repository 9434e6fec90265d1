// KernelBench level1/3_Batched_matrix_multiplication.py (v0.1 shapes):
// C[b] = A[b] * B[b], batch 128, 128x256 * 256x512, f32.
func.func @batched_matmul(%A: tensor<128x128x256xf32>, %B: tensor<128x256x512xf32>,
                          %C: tensor<128x128x512xf32>) -> tensor<128x128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<128x128x512xf32>) -> tensor<128x128x512xf32>
  %0 = linalg.batch_matmul ins(%A, %B : tensor<128x128x256xf32>, tensor<128x256x512xf32>)
                           outs(%acc : tensor<128x128x512xf32>) -> tensor<128x128x512xf32>
  return %0 : tensor<128x128x512xf32>
}
