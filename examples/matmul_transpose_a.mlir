// C = A^T * B (A stored as K x M).
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_transpose_a(%A: tensor<512x1024xf32>, %B: tensor<512x1024xf32>,
                              %C: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.generic {indexing_maps = [#at, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<512x1024xf32>, tensor<512x1024xf32>)
      outs(%acc : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
