// bf16 in, bf16 out, 2048^3 (torch.matmul on bf16 tensors): f32 accumulation
// on sm_90's wgmma, rounded once to bf16 in the epilogue.
func.func @matmul_bf16_square(%A: tensor<2048x2048xbf16>, %B: tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<2048x2048xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  %0 = linalg.matmul ins(%A, %B : tensor<2048x2048xbf16>, tensor<2048x2048xbf16>)
                     outs(%acc : tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  return %0 : tensor<2048x2048xbf16>
}
