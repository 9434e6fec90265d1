// KernelBench level1/23_Softmax.py (current shapes, KernelBench 423217d): softmax over dim 1 of
// 4096x393216 f32, as torch-mlir emits it (qimeng-prepare decomposes it).
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
func.func @softmax(%x: tensor<4096x393216xf32>) -> tensor<4096x393216xf32> {
  %y = tensor.empty() : tensor<4096x393216xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4096x393216xf32>)
                                   outs(%y : tensor<4096x393216xf32>) -> tensor<4096x393216xf32>
  return %0 : tensor<4096x393216xf32>
}
