// An i8 x i8 -> i32 matmul at odd sizes.
func.func @kernel(%a: tensor<65x70xi8>, %b: tensor<70x33xi8>) -> tensor<65x33xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<65x33xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<65x33xi32>) -> tensor<65x33xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<65x70xi8>, tensor<70x33xi8>) outs(%f : tensor<65x33xi32>) -> tensor<65x33xi32>
  return %0 : tensor<65x33xi32>
}
