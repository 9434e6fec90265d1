func.func @tr(%b: tensor<2048x4096xf16>) -> tensor<4096x2048xf16> {
  %e = tensor.empty() : tensor<4096x2048xf16>
  %t = linalg.transpose ins(%b : tensor<2048x4096xf16>) outs(%e : tensor<4096x2048xf16>) permutation = [1, 0] {qimeng.tag = "t"}
  return %t : tensor<4096x2048xf16>
}
qimeng.plan @tr provenance "builtin" {
  qimeng.tile "t" [16, 256] to block
  qimeng.tile "t" [16, 1] to thread
}
