// Linear + GELU + softmax (QiMeng's level 2; no KernelBench v0.1 problem,
// shapes as level2/12): y = softmax(gelu(x W + b), dim 1) with the exact
// (erf) GELU, x 128x1024, W 1024x512 (stored [in, out]), b 512, f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_gelu_softmax(%x: tensor<128x1024xf32>, %w: tensor<1024x512xf32>, %b: tensor<512xf32>,
                               %y: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106781 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x1024xf32>, tensor<1024x512xf32>)
                      outs(%acc : tensor<128x512xf32>) -> tensor<128x512xf32>
  %g = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512xf32>) outs(%mm : tensor<128x512xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %t = arith.addf %v, %bias : f32
    %s = arith.mulf %t, %rsqrt2 : f32
    %er = math.erf %s : f32
    %p = arith.addf %er, %one : f32
    %u = arith.mulf %t, %p : f32
    %r = arith.mulf %u, %half : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  %0 = linalg.softmax dimension(1) ins(%g : tensor<128x512xf32>)
                                   outs(%y : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
}
