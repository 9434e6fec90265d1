// KernelBench level1/4_Matrix_vector_multiplication_.py (v0.1 sizes):
// y = A x with A[256x131072], f32. The vector and the result are 1-D
// (131072 and 256) where KernelBench has 131072x1 and 256x1: same data.
func.func @matvec(%A: tensor<256x131072xf32>, %x: tensor<131072xf32>,
                  %y: tensor<256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<256xf32>) -> tensor<256xf32>
  %0 = linalg.matvec ins(%A, %x : tensor<256x131072xf32>, tensor<131072xf32>)
                     outs(%acc : tensor<256xf32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}
