func.func @tr(%b: tensor<2048x4096xf32>) -> tensor<4096x2048xf32> {
  %e = tensor.empty() : tensor<4096x2048xf32>
  %t = linalg.transpose ins(%b : tensor<2048x4096xf32>) outs(%e : tensor<4096x2048xf32>) permutation = [1, 0] {qimeng.tag = "t"}
  return %t : tensor<4096x2048xf32>
}
qimeng.plan @tr provenance "builtin" {
  qimeng.tile "t" [32, 64] to block
  qimeng.promote "t" operands [0] pad 4
  qimeng.tile "t" [8, 1] to thread
  qimeng.vectorize "t" width 4
}
