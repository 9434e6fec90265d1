// Batched matmul in double precision, as frontends write it: a dynamic batch,
// the result built from tensor.empty + fill and returned, sizes off the
// 64x64 tiles ((? x 200x300) * (? x 300x250)). Runs on the FP64 tensor cores
// (mma.sync m8n8k4) after padding to whole tiles.
func.func @batch_matmul_f64(%a: tensor<?x200x300xf64>, %b: tensor<?x300x250xf64>) -> tensor<?x200x250xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %a, %c0 : tensor<?x200x300xf64>
  %empty = tensor.empty(%n) : tensor<?x200x250xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<?x200x250xf64>) -> tensor<?x200x250xf64>
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x200x300xf64>, tensor<?x300x250xf64>)
                           outs(%acc : tensor<?x200x250xf64>) -> tensor<?x200x250xf64>
  return %r : tensor<?x200x250xf64>
}
