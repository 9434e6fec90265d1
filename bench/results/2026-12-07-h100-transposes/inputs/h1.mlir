func.func @tr(%b: tensor<2048x4096xf16>) -> tensor<4096x2048xf16> {
  %e = tensor.empty() : tensor<4096x2048xf16>
  %t = linalg.transpose ins(%b : tensor<2048x4096xf16>) outs(%e : tensor<4096x2048xf16>) permutation = [1, 0] 
  return %t : tensor<4096x2048xf16>
}
