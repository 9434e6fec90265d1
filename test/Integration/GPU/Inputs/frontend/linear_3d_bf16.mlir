// A bf16 Linear + bias + ReLU over (batch, sequence, features) as torch-mlir
// writes it: the rows collapsed into a 2-D matmul, the result expanded back,
// then the bias and ReLU. On sm_90 one wgmma kernel with the bias and ReLU
// in its epilogue.
#x3 = affine_map<(b, s, n) -> (b, s, n)>
#bias = affine_map<(b, s, n) -> (n)>
func.func @linear_3d_bf16(%x: tensor<4x128x768xbf16>, %w: tensor<768x3072xbf16>, %b: tensor<3072xbf16>) -> tensor<4x128x3072xbf16> {
  %zero = arith.constant 0.0 : bf16
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x128x768xbf16> into tensor<512x768xbf16>
  %e = tensor.empty() : tensor<512x3072xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<512x3072xbf16>) -> tensor<512x3072xbf16>
  %mm = linalg.matmul ins(%rows, %w : tensor<512x768xbf16>, tensor<768x3072xbf16>) outs(%f : tensor<512x3072xbf16>) -> tensor<512x3072xbf16>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 128, 3072] : tensor<512x3072xbf16> into tensor<4x128x3072xbf16>
  %e3 = tensor.empty() : tensor<4x128x3072xbf16>
  %y = linalg.generic {indexing_maps = [#x3, #bias, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %b : tensor<4x128x3072xbf16>, tensor<3072xbf16>) outs(%e3 : tensor<4x128x3072xbf16>) {
  ^bb0(%v: bf16, %bv: bf16, %o: bf16):
    %s = arith.addf %v, %bv : bf16
    %z = arith.maximumf %s, %zero : bf16
    linalg.yield %z : bf16
  } -> tensor<4x128x3072xbf16>
  return %y : tensor<4x128x3072xbf16>
}
