#x3 = affine_map<(b, s, n) -> (b, s, n)>
#bias = affine_map<(b, s, n) -> (n)>
func.func @linear_3d_f32(%x: tensor<4x128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<4x128x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x128x768xf32> into tensor<512x768xf32>
  %e = tensor.empty() : tensor<512x3072xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %mm = linalg.matmul ins(%rows, %w : tensor<512x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 128, 3072] : tensor<512x3072xf32> into tensor<4x128x3072xf32>
  %e3 = tensor.empty() : tensor<4x128x3072xf32>
  %y = linalg.generic {indexing_maps = [#x3, #bias, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %b : tensor<4x128x3072xf32>, tensor<3072xf32>) outs(%e3 : tensor<4x128x3072xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<4x128x3072xf32>
  return %y : tensor<4x128x3072xf32>
}
