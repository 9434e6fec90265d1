// A strided tensor.extract_slice and tensor.concat, then erf.
func.func @kernel(%a: tensor<10x20xf32>, %b: tensor<10x5xf32>) -> tensor<10x13xf32> {
  %s = tensor.extract_slice %a[0, 3] [10, 8] [1, 2] : tensor<10x20xf32> to tensor<10x8xf32>
  %c = tensor.concat dim(1) %s, %b : (tensor<10x8xf32>, tensor<10x5xf32>) -> tensor<10x13xf32>
  %e = tensor.empty() : tensor<10x13xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%c : tensor<10x13xf32>) outs(%e : tensor<10x13xf32>) {
    ^bb0(%v: f32, %o: f32): %t = math.erf %v : f32
      linalg.yield %t : f32 } -> tensor<10x13xf32>
  return %r : tensor<10x13xf32>
}
