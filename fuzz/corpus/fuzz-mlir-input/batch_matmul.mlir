// Batched matmul: 16 x (512x256 * 256x512) f32.
func.func @batch_matmul(%A: tensor<16x512x256xf32>, %B: tensor<16x256x512xf32>,
                        %C: tensor<16x512x512xf32>) -> tensor<16x512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
  %0 = linalg.batch_matmul ins(%A, %B : tensor<16x512x256xf32>, tensor<16x256x512xf32>)
                           outs(%acc : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
  return %0 : tensor<16x512x512xf32>
}
