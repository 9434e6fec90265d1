// KernelBench level1/36_RMSNorm_.py (current shapes, KernelBench 423217d): x / sqrt(mean(x^2 over
// dim 1) + eps) for x of 112x64x512x512 f32 (64 features), eps 1e-5.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#nhw = affine_map<(n, c, h, w) -> (n, h, w)>
func.func @rmsnorm(%x: tensor<112x64x512x512xf32>, %y: tensor<112x64x512x512xf32>)
    -> tensor<112x64x512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %qe = tensor.empty() : tensor<112x512x512xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%qe : tensor<112x512x512xf32>) -> tensor<112x512x512xf32>
  %sq = linalg.generic {indexing_maps = [#id, #nhw],
                        iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%x : tensor<112x64x512x512xf32>) outs(%q0 : tensor<112x512x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %a2 = arith.mulf %a, %a : f32
    %r = arith.addf %a2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<112x512x512xf32>
  %0 = linalg.generic {indexing_maps = [#id, #nhw, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sq : tensor<112x64x512x512xf32>, tensor<112x512x512xf32>)
      outs(%y : tensor<112x64x512x512xf32>) {
  ^bb0(%a: f32, %q: f32, %o: f32):
    %ms = arith.divf %q, %count : f32
    %me = arith.addf %ms, %eps : f32
    %rms = math.sqrt %me : f32
    %r = arith.divf %a, %rms : f32
    linalg.yield %r : f32
  } -> tensor<112x64x512x512xf32>
  return %0 : tensor<112x64x512x512xf32>
}
