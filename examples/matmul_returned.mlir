// C = A * B, 512x768 by 768x1024 f32, returned: the accumulator is a
// zero-filled tensor.empty (torch-mlir's form of torch.mm).
func.func @matmul(%A: tensor<512x768xf32>, %B: tensor<768x1024xf32>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<512x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<512x768xf32>, tensor<768x1024xf32>)
                     outs(%acc : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %0 : tensor<512x1024xf32>
}
