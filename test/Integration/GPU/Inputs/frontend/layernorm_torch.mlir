// LayerNorm with keepdim (rows, 1) sums and their fills, as torch-mlir writes it.
func.func @kernel(%x: tensor<6x513xf32>, %g: tensor<513xf32>, %b: tensor<513xf32>) -> tensor<6x513xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 513.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<6x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<6x513xf32>) outs(%f1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32 } -> tensor<6x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%sum : tensor<6x1xf32>) outs(%e1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %o: f32): %d = arith.divf %v, %n : f32
      linalg.yield %d : f32 } -> tensor<6x1xf32>
  %e2 = tensor.empty() : tensor<6x513xf32>
  %xc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mean : tensor<6x513xf32>, tensor<6x1xf32>) outs(%e2 : tensor<6x513xf32>) {
    ^bb0(%v: f32, %m: f32, %o: f32): %d = arith.subf %v, %m : f32
      linalg.yield %d : f32 } -> tensor<6x513xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%xc : tensor<6x513xf32>) outs(%f1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %p = arith.mulf %v, %v : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32 } -> tensor<6x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%xc, %sq, %g, %b : tensor<6x513xf32>, tensor<6x1xf32>, tensor<513xf32>, tensor<513xf32>) outs(%e2 : tensor<6x513xf32>) {
    ^bb0(%v: f32, %s: f32, %gg: f32, %bb: f32, %o: f32):
      %var = arith.divf %s, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %y = arith.mulf %v, %rs : f32
      %y2 = arith.mulf %y, %gg : f32
      %y3 = arith.addf %y2, %bb : f32
      linalg.yield %y3 : f32 } -> tensor<6x513xf32>
  return %r : tensor<6x513xf32>
}
