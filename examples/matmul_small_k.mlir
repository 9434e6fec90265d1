// Small-K matmul: 4096x4096 output, K = 32.
func.func @matmul_small_k(%A: tensor<4096x32xf32>, %B: tensor<32x4096xf32>,
                          %C: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<4096x32xf32>, tensor<32x4096xf32>)
                     outs(%acc : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
