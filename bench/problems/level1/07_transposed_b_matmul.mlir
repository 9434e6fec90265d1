// KernelBench level1/17_Matmul_with_transposed_B.py (v0.1 shapes):
// C[1024x2048] = A[1024x4096] * B^T with B stored as 2048x4096, f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_b_matmul(%A: tensor<1024x4096xf32>, %B: tensor<2048x4096xf32>) -> tensor<1024x2048xf32> {
  %C = tensor.empty() : tensor<1024x2048xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %0 = linalg.generic {indexing_maps = [#a, #bt, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<1024x4096xf32>, tensor<2048x4096xf32>)
      outs(%acc : tensor<1024x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x2048xf32>
  return %0 : tensor<1024x2048xf32>
}
