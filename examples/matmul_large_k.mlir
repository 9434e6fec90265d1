// Large-K matmul: 256x256 output, K = 16384 (KernelBench level 1 #6, scaled).
func.func @matmul_large_k(%A: tensor<256x16384xf32>, %B: tensor<16384x256xf32>,
                          %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<256x16384xf32>, tensor<16384x256xf32>)
                     outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
