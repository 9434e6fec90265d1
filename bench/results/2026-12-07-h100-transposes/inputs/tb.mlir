#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @tb(%a: tensor<1024x4096xf32>, %b: tensor<2048x4096xf32>) -> tensor<1024x2048xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x2048xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%a, %b : tensor<1024x4096xf32>, tensor<2048x4096xf32>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  return %r : tensor<1024x2048xf32>
}
