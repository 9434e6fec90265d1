// torch-mlir's argmax: a max-and-index reduction, the index returned.
func.func @kernel(%a: tensor<19x333xf32>) -> tensor<19xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<19xf32>
  %ei = tensor.empty() : tensor<19xi64>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<19xf32>) -> tensor<19xf32>
  %fi = linalg.fill ins(%z : i64) outs(%ei : tensor<19xi64>) -> tensor<19xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<19x333xf32>) outs(%f, %fi : tensor<19xf32>, tensor<19xi64>) {
    ^bb0(%x: f32, %mx: f32, %ix: i64):
      %j = linalg.index 1 : index
      %jj = arith.index_cast %j : index to i64
      %gt = arith.cmpf ogt, %x, %mx : f32
      %nm = arith.select %gt, %x, %mx : f32
      %ni = arith.select %gt, %jj, %ix : i64
      linalg.yield %nm, %ni : f32, i64 } -> (tensor<19xf32>, tensor<19xi64>)
  return %r#1 : tensor<19xi64>
}
