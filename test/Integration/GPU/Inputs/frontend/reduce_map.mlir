// linalg.map (abs) then linalg.reduce (sum) over rows of 1001.
func.func @kernel(%a: tensor<33x1001xf32>) -> tensor<33xf32> {
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<33x1001xf32>
  %sq = linalg.map { math.absf } ins(%a : tensor<33x1001xf32>) outs(%e2 : tensor<33x1001xf32>)
  %e = tensor.empty() : tensor<33xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<33xf32>) -> tensor<33xf32>
  %r = linalg.reduce ins(%sq : tensor<33x1001xf32>) outs(%f : tensor<33xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<33xf32>
}
