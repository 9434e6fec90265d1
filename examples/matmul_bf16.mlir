// bf16 inputs, f32 accumulation: 1024x1024x1024 (wgmma on sm_90, mma.sync
// with bf16 operands on sm_80).
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_bf16(%A: tensor<1024x1024xbf16>, %B: tensor<1024x1024xbf16>,
                      %C: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>)
      outs(%acc : tensor<1024x1024xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
