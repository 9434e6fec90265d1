// A batched matmul with a dynamic number of rows M (attention scores over
// a variable sequence, say): M is padded and split into 64-row tiles that
// share B's batch, K = 300 into 2 parts (3 batches of 4 column tiles leave
// most SMs idle), and the SIMT plan takes the parts, the batch and the M
// tiles as batch loops (docs/planner.md). The result is returned.
func.func @batched_dynamic_m(%a: tensor<3x?x300xf32>, %b: tensor<3x300x200xf32>) -> tensor<3x?x200xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<3x?x300xf32>
  %e = tensor.empty(%m) : tensor<3x?x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x?x200xf32>) -> tensor<3x?x200xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x?x300xf32>, tensor<3x300x200xf32>) outs(%f : tensor<3x?x200xf32>) -> tensor<3x?x200xf32>
  return %r : tensor<3x?x200xf32>
}
