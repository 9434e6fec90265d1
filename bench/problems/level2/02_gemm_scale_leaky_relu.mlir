// KernelBench level2/12_Gemm_Multiply_LeakyReLU.py (v0.1 shapes):
// y = leaky_relu((x W + b) * 2.0, slope 0.1), x 128x1024, W 1024x512
// (stored [in, out], the transpose of nn.Linear's weight), b 512, f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm_scale_leaky_relu(%x: tensor<128x1024xf32>, %w: tensor<1024x512xf32>, %b: tensor<512xf32>,
                                 %y: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 2.0 : f32
  %slope = arith.constant 0.1 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<128x512xf32>) -> tensor<128x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x1024xf32>, tensor<1024x512xf32>)
                      outs(%acc : tensor<128x512xf32>) -> tensor<128x512xf32>
  %0 = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512xf32>) outs(%mm : tensor<128x512xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %t = arith.addf %v, %bias : f32
    %s = arith.mulf %t, %scale : f32
    %neg = arith.mulf %s, %slope : f32
    %pos = arith.cmpf ogt, %s, %zero : f32
    %r = arith.select %pos, %s, %neg : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
}
