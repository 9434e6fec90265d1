// KernelBench level1/4_Matrix_vector_multiplication_.py (current sizes, KernelBench 423217d):
// y = A x with A[2048x1048576], f32. The vector and the result are 1-D
// (1048576 and 2048) where KernelBench has 1048576x1 and 2048x1: same data.
func.func @matvec(%A: tensor<2048x1048576xf32>, %x: tensor<1048576xf32>,
                  %y: tensor<2048xf32>) -> tensor<2048xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<2048xf32>) -> tensor<2048xf32>
  %0 = linalg.matvec ins(%A, %x : tensor<2048x1048576xf32>, tensor<1048576xf32>)
                     outs(%acc : tensor<2048xf32>) -> tensor<2048xf32>
  return %0 : tensor<2048xf32>
}
