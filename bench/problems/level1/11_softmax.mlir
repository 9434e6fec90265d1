// KernelBench level1/23_Softmax.py (v0.1 shapes): softmax over dim 1 of
// 16x16384 f32, as torch-mlir emits it (qimeng-prepare decomposes it).
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
func.func @softmax(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %y = tensor.empty() : tensor<16x16384xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x16384xf32>)
                                   outs(%y : tensor<16x16384xf32>) -> tensor<16x16384xf32>
  return %0 : tensor<16x16384xf32>
}
