// Two results from one generic: an i1 comparison and a select, f16, 100x3.
func.func @kernel(%a: tensor<100x3xf16>, %b: tensor<100x3xf16>) -> (tensor<100x3xi1>, tensor<100x3xf16>) {
  %e1 = tensor.empty() : tensor<100x3xi1>
  %e2 = tensor.empty() : tensor<100x3xf16>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<100x3xf16>, tensor<100x3xf16>) outs(%e1, %e2 : tensor<100x3xi1>, tensor<100x3xf16>) {
    ^bb0(%x: f16, %y: f16, %o: i1, %p: f16): %c = arith.cmpf ogt, %x, %y : f16
      %s = arith.select %c, %x, %y : f16
      linalg.yield %c, %s : i1, f16 } -> (tensor<100x3xi1>, tensor<100x3xf16>)
  return %r#0, %r#1 : tensor<100x3xi1>, tensor<100x3xf16>
}
