// linalg.broadcast, linalg.map and linalg.transpose (StableHLO's named forms): rows scaled by a vector, transposed.
func.func @kernel(%a: tensor<17x31xf32>, %b: tensor<31xf32>) -> tensor<31x17xf32> {
  %e = tensor.empty() : tensor<17x31xf32>
  %bb = linalg.broadcast ins(%b : tensor<31xf32>) outs(%e : tensor<17x31xf32>) dimensions = [0]
  %s = linalg.map { arith.mulf } ins(%a, %bb : tensor<17x31xf32>, tensor<17x31xf32>) outs(%e : tensor<17x31xf32>)
  %et = tensor.empty() : tensor<31x17xf32>
  %t = linalg.transpose ins(%s : tensor<17x31xf32>) outs(%et : tensor<31x17xf32>) permutation = [1, 0]
  return %t : tensor<31x17xf32>
}
