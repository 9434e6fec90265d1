// A bf16 Linear layer as torch-mlir writes it: a dynamic number of rows M
// (the batch), bf16 result returned from a zero-filled tensor.empty, K and N
// not multiples of the tiles (1000 = 15 x 64 + 40, 1544 = 6 x 256 + 8). On
// sm_90: the wgmma kernel, TMA's zero fill past the edges.
func.func @linear_bf16(%x: tensor<?x1000xbf16>, %w: tensor<1000x1544xbf16>) -> tensor<?x1544xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1000xbf16>
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty(%m) : tensor<?x1544xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<?x1544xbf16>) -> tensor<?x1544xbf16>
  %0 = linalg.matmul ins(%x, %w : tensor<?x1000xbf16>, tensor<1000x1544xbf16>)
                     outs(%acc : tensor<?x1544xbf16>) -> tensor<?x1544xbf16>
  return %0 : tensor<?x1544xbf16>
}
