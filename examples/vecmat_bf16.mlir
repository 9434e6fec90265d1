// One row times a bf16 (k, n) matrix (a decode step's Linear whose weight is
// stored (in, out)), the result returned: once the unit row is dropped, a
// vector times a matrix whose columns are the outputs. A warp per output
// would read a column each; instead the reduction over K splits into parts
// whose threads run along N (reading the matrix along its rows), and a
// second kernel adds the parts.
func.func @vecmat(%x: tensor<1x4096xbf16>, %w: tensor<4096x3000xbf16>) -> tensor<1x3000xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<1x3000xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<1x3000xbf16>) -> tensor<1x3000xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<1x4096xbf16>, tensor<4096x3000xbf16>)
                     outs(%acc : tensor<1x3000xbf16>) -> tensor<1x3000xbf16>
  return %y : tensor<1x3000xbf16>
}
