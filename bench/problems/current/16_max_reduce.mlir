// KernelBench level1/49_Max_reduction_over_a_dimension.py (current shapes, KernelBench 423217d):
// torch.max(x, dim=1)[0] for x of 128x4096x4095 f32 -> 128x4095.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
func.func @max_reduce(%x: tensor<128x4096x4095xf32>, %y: tensor<128x4095xf32>) -> tensor<128x4095xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = linalg.fill ins(%ninf : f32) outs(%y : tensor<128x4095xf32>) -> tensor<128x4095xf32>
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<128x4096x4095xf32>) outs(%init : tensor<128x4095xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<128x4095xf32>
  return %0 : tensor<128x4095xf32>
}
