// A batch of matrices transposed (keys for QKᵀ, a dynamic batch), and a
// matmul written as a generic with the named op's maps (IREE's and
// StableHLO's form), which runs as linalg.matmul.
func.func @transpose_dyn(%k: tensor<?x128x96xf32>, %a: tensor<200x130xf32>, %b: tensor<130x96xf32>)
    -> (tensor<?x96x128xf32>, tensor<200x96xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %k, %c0 : tensor<?x128x96xf32>
  %e = tensor.empty(%n) : tensor<?x96x128xf32>
  %t = linalg.transpose ins(%k : tensor<?x128x96xf32>) outs(%e : tensor<?x96x128xf32>) permutation = [0, 2, 1]
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<200x96xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%em : tensor<200x96xf32>) -> tensor<200x96xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<200x130xf32>, tensor<130x96xf32>) outs(%fm : tensor<200x96xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<200x96xf32>
  return %t, %mm : tensor<?x96x128xf32>, tensor<200x96xf32>
}
