// A public function calling a private helper (StableHLO's and JAX's form): inlined, then one kernel.
func.func private @helper(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.map { math.tanh } ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>)
  return %r : tensor<64x32xf32>
}
func.func @main(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %t = call @helper(%a) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.map { arith.addf } ins(%t, %b : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>)
  return %r : tensor<64x32xf32>
}
