// KernelBench level 1 softmax at its current shape (4096 x 393216, f32).
func.func @kernel(%x: tensor<4096x393216xf32>) -> tensor<4096x393216xf32> {
  %e = tensor.empty() : tensor<4096x393216xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4096x393216xf32>) outs(%e : tensor<4096x393216xf32>) -> tensor<4096x393216xf32>
  return %s : tensor<4096x393216xf32>
}
