func.func @tr(%b: tensor<2048x4096xf32>) -> tensor<4096x2048xf32> {
  %e = tensor.empty() : tensor<4096x2048xf32>
  %t = linalg.transpose ins(%b : tensor<2048x4096xf32>) outs(%e : tensor<4096x2048xf32>) permutation = [1, 0] 
  return %t : tensor<4096x2048xf32>
}
