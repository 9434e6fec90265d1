// torch.where: an i1 mask selects between a tensor and a broadcast row.
func.func @kernel(%m: tensor<61x7xi1>, %a: tensor<61x7xf32>, %b: tensor<7xf32>) -> tensor<61x7xf32> {
  %e = tensor.empty() : tensor<61x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %a, %b : tensor<61x7xi1>, tensor<61x7xf32>, tensor<7xf32>) outs(%e : tensor<61x7xf32>) {
    ^bb0(%c: i1, %x: f32, %y: f32, %o: f32): %s = arith.select %c, %x, %y : f32
      linalg.yield %s : f32 } -> tensor<61x7xf32>
  return %r : tensor<61x7xf32>
}
