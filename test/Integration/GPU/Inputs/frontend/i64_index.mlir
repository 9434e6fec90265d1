// An i64 generic that reads its own column index (linalg.index).
func.func @kernel(%a: tensor<7x9xi64>) -> tensor<7x9xi64> {
  %e = tensor.empty() : tensor<7x9xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%a : tensor<7x9xi64>) outs(%e : tensor<7x9xi64>) {
    ^bb0(%x: i64, %o: i64): %i = linalg.index 1 : index
      %ii = arith.index_cast %i : index to i64
      %s = arith.muli %x, %ii : i64
      linalg.yield %s : i64 } -> tensor<7x9xi64>
  return %r : tensor<7x9xi64>
}
