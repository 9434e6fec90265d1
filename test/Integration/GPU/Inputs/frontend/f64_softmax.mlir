// linalg.softmax in f64.
func.func @kernel(%a: tensor<5x301xf64>) -> tensor<5x301xf64> {
  %e = tensor.empty() : tensor<5x301xf64>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<5x301xf64>) outs(%e : tensor<5x301xf64>) -> tensor<5x301xf64>
  return %0 : tensor<5x301xf64>
}
