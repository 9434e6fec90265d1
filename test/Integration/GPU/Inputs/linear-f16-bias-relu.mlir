// An f16 Linear + bias + ReLU with an f16 result, returned (as torch-mlir
// writes it): on sm_80's mma.sync plan the fill starts the accumulators and
// bias, ReLU and the rounding to f16 run in the epilogue (one kernel).
func.func @linear_f16_bias_relu(%x: tensor<512x256xf16>, %w: tensor<256x768xf16>,
                                %b: tensor<768xf16>) -> tensor<512x768xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<512x768xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<512x768xf16>) -> tensor<512x768xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<512x256xf16>, tensor<256x768xf16>)
                      outs(%acc : tensor<512x768xf16>) -> tensor<512x768xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<512x768xf16>, tensor<768xf16>) outs(%e : tensor<512x768xf16>) {
  ^bb0(%v: f16, %bias: f16, %o: f16):
    %s = arith.addf %v, %bias : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  } -> tensor<512x768xf16>
  return %y : tensor<512x768xf16>
}
