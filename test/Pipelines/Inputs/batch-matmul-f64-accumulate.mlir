// A batched f64 matmul that accumulates into the output it is given (no
// fill): its accumulators start from the output's values.
func.func @batch_matmul_f64_acc(%a: tensor<4x256x128xf64>, %b: tensor<4x128x192xf64>,
                                %c: tensor<4x256x192xf64>) -> tensor<4x256x192xf64> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x256x128xf64>, tensor<4x128x192xf64>)
                           outs(%c : tensor<4x256x192xf64>) -> tensor<4x256x192xf64>
  return %r : tensor<4x256x192xf64>
}
