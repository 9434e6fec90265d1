// C = A * B, 1024x1024x1024 f32 on tensors (what torch-mlir emits for
// torch.mm): a zero-filled accumulator and a linalg.matmul.
func.func @matmul(%A: tensor<1024x1024xf32>, %B: tensor<1024x1024xf32>,
                  %C: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
