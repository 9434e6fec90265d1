// An f64 Linear layer without bias over a dynamic number of rows: 256 inputs,
// 512 outputs. qimeng-prepare pads the rows into 64-row tiles that share the
// weight (and splits K in 2 while the tiles are few); the product runs on
// the FP64 tensor cores (mma.sync m8n8k4) with its zero fill in the
// accumulators (docs/planner.md).
func.func @linear_f64(%x: tensor<?x256xf64>, %w: tensor<256x512xf64>) -> tensor<?x512xf64> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x256xf64>
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty(%m) : tensor<?x512xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<?x512xf64>) -> tensor<?x512xf64>
  %y = linalg.matmul ins(%x, %w : tensor<?x256xf64>, tensor<256x512xf64>)
                     outs(%acc : tensor<?x512xf64>) -> tensor<?x512xf64>
  return %y : tensor<?x512xf64>
}
