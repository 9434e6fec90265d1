// linalg.matmul with indexing_maps: B read (n, k), f32, 77x100 x (55x100)^T.
func.func @kernel(%a: tensor<77x100xf32>, %b: tensor<55x100xf32>) -> tensor<77x55xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x55xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<77x55xf32>) -> tensor<77x55xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %b : tensor<77x100xf32>, tensor<55x100xf32>) outs(%f : tensor<77x55xf32>) -> tensor<77x55xf32>
  return %0 : tensor<77x55xf32>
}
