// Row sums of 333x4097 f32 (odd sizes) into a zero-filled tensor.empty,
// returned.
func.func @reduce_sum(%x: tensor<333x4097xf32>) -> tensor<333xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<333xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<333xf32>) -> tensor<333xf32>
  %0 = linalg.reduce ins(%x : tensor<333x4097xf32>) outs(%acc : tensor<333xf32>) dimensions = [1]
    (%in: f32, %sum: f32) {
      %s = arith.addf %in, %sum : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<333xf32>
}
