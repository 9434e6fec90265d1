// Row sums, returned in a fresh tensor.
func.func @rowsum(%x: tensor<67x300xf32>) -> tensor<67xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<67xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<67xf32>) -> tensor<67xf32>
  %0 = linalg.reduce ins(%x : tensor<67x300xf32>) outs(%acc : tensor<67xf32>) dimensions = [1]
    (%in: f32, %sum: f32) {
      %s = arith.addf %in, %sum : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<67xf32>
}
