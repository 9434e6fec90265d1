// An f16 matmul into f16, its result reshaped by tensor.expand_shape.
func.func @kernel(%a: tensor<24x32xf16>, %b: tensor<32x48xf16>) -> tensor<2x12x48xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<24x48xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x48xf16>) -> tensor<24x48xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<24x32xf16>, tensor<32x48xf16>) outs(%f : tensor<24x48xf16>) -> tensor<24x48xf16>
  %x = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 12, 48] : tensor<24x48xf16> into tensor<2x12x48xf16>
  return %x : tensor<2x12x48xf16>
}
