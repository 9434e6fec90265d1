// A Linear layer without bias as frontends write it, with a dynamic number
// of rows M and a long, odd K: 509 = 4 x 128 - 3. Its 256 columns are 4
// output tiles of 64: with a small M most SMs would idle, so qimeng-prepare
// pads it and splits K into 4 parts of 128 (split-K), summed in the copy
// of the result (docs/planner.md).
func.func @linear_split_k(%x: tensor<?x509xf32>, %w: tensor<509x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x509xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%m) : tensor<?x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x256xf32>) -> tensor<?x256xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<?x509xf32>, tensor<509x256xf32>)
                     outs(%acc : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}
