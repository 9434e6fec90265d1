// KernelBench level1/47_Sum_reduction_over_a_dimension.py (current shapes, KernelBench 423217d):
// torch.sum(x, dim=1, keepdim=True) for x of 128x4096x4095 f32 -> 128x1x4095.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, 0, c)>
func.func @sum_reduce(%x: tensor<128x4096x4095xf32>) -> tensor<128x1x4095xf32> {
  %y = tensor.empty() : tensor<128x1x4095xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%y : tensor<128x1x4095xf32>) -> tensor<128x1x4095xf32>
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<128x4096x4095xf32>) outs(%init : tensor<128x1x4095xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128x1x4095xf32>
  return %0 : tensor<128x1x4095xf32>
}
