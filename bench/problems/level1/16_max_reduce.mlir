// KernelBench level1/49_Max_reduction_over_a_dimension.py (v0.1 shapes):
// torch.max(x, dim=1)[0] for x of 16x256x256 f32 -> 16x256.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
func.func @max_reduce(%x: tensor<16x256x256xf32>, %y: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = linalg.fill ins(%ninf : f32) outs(%y : tensor<16x256xf32>) -> tensor<16x256xf32>
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<16x256x256xf32>) outs(%init : tensor<16x256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}
