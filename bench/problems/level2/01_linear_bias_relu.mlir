// Linear + bias + ReLU (QiMeng's level 2; shapes as KernelBench
// level2/12_Gemm_Multiply_LeakyReLU.py): y = relu(x W + b),
// x 128x1024, W 1024x512 (stored [in, out]), b 512, f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_bias_relu(%x: tensor<128x1024xf32>, %w: tensor<1024x512xf32>, %b: tensor<512xf32>) -> tensor<128x512xf32> {
  %y = tensor.empty() : tensor<128x512xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<128x512xf32>) -> tensor<128x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x1024xf32>, tensor<1024x512xf32>)
                      outs(%acc : tensor<128x512xf32>) -> tensor<128x512xf32>
  %0 = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512xf32>) outs(%mm : tensor<128x512xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
}
