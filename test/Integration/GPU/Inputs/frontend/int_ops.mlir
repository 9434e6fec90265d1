// i32 remainder, truncated to i16.
func.func @kernel(%a: tensor<33x17xi32>, %b: tensor<33x17xi32>) -> tensor<33x17xi16> {
  %e = tensor.empty() : tensor<33x17xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<33x17xi32>, tensor<33x17xi32>) outs(%e : tensor<33x17xi16>) {
    ^bb0(%x: i32, %y: i32, %o: i16):
      %one = arith.constant 1 : i32
      %yy = arith.ori %y, %one : i32
      %d = arith.remsi %x, %yy : i32
      %t = arith.trunci %d : i32 to i16
      linalg.yield %t : i16 } -> tensor<33x17xi16>
  return %r : tensor<33x17xi16>
}
