// torch.amax(x, dim=1, keepdim=True) over a dynamic dimension: the output
// keeps its unit dimension, (b, 0, c), and its -inf fill runs in the
// reduction's kernel (one kernel; docs/planner.md).
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, 0, c)>
func.func @amax_keepdim(%x: tensor<8x?x96xf32>) -> tensor<8x1x96xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x1x96xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8x1x96xf32>) -> tensor<8x1x96xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<8x?x96xf32>) outs(%f : tensor<8x1x96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8x1x96xf32>
  return %r : tensor<8x1x96xf32>
}
