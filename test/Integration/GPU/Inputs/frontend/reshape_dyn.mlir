// tensor.collapse_shape of a dynamic batch, then tanh; run with --shape=0=37x4x16.
func.func @kernel(%a: tensor<?x4x16xf32>) -> tensor<?x64xf32> {
  %c = tensor.collapse_shape %a [[0], [1, 2]] : tensor<?x4x16xf32> into tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %c, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%d) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%c : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
    ^bb0(%x: f32, %o: f32): %t = math.tanh %x : f32
      linalg.yield %t : f32 } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
