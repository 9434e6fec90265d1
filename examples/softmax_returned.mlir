// Row softmax over 512x3000 f32 into a fresh, returned result
// (torch.softmax through torch-mlir: linalg.softmax on tensor.empty).
func.func @softmax(%x: tensor<512x3000xf32>) -> tensor<512x3000xf32> {
  %empty = tensor.empty() : tensor<512x3000xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<512x3000xf32>)
                                   outs(%empty : tensor<512x3000xf32>) -> tensor<512x3000xf32>
  return %0 : tensor<512x3000xf32>
}
