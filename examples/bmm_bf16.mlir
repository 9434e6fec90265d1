// A batched bf16 matmul as torch-mlir writes torch.bmm: a dynamic number of
// batches, the result returned from a zero-filled tensor.empty; M = 500 and
// N = 1544 off the tiles, K = 1024. On sm_90 one wgmma kernel: a block per
// (batch, 128 x 256 tile), A and B read as one matrix of all batches' rows,
// the f32 accumulators rounded to bf16 in the epilogue.
func.func @bmm(%a: tensor<?x500x1024xbf16>, %b: tensor<?x1024x1544xbf16>) -> tensor<?x500x1544xbf16> {
  %c0 = arith.constant 0 : index
  %batches = tensor.dim %a, %c0 : tensor<?x500x1024xbf16>
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty(%batches) : tensor<?x500x1544xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<?x500x1544xbf16>) -> tensor<?x500x1544xbf16>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<?x500x1024xbf16>, tensor<?x1024x1544xbf16>)
                           outs(%acc : tensor<?x500x1544xbf16>) -> tensor<?x500x1544xbf16>
  return %0 : tensor<?x500x1544xbf16>
}
