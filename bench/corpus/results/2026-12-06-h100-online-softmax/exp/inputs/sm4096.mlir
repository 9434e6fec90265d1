// Row softmax over 4096x4096 f32, as torch-mlir emits it (linalg.softmax).
func.func @softmax(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4096x4096xf32>) outs(%y : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
