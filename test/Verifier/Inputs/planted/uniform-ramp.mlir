// Wrong: 1/4096 plus a small ramp along the row (up to 0.1 % of the value).
#bcast = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @uniform(%x: tensor<64xf32>) -> tensor<64x4096xf32> {
  %inv = arith.constant 2.44140625e-04 : f32
  %step = arith.constant 5.96046448e-11 : f32
  %e = tensor.empty() : tensor<64x4096xf32>
  %0 = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %r = arith.mulf %jf, %step : f32
    %f = arith.addf %r, %inv : f32
    %z = arith.mulf %a, %f : f32
    %y = arith.subf %f, %z : f32
    %w = arith.addf %y, %z : f32
    linalg.yield %w : f32
  } -> tensor<64x4096xf32>
  return %0 : tensor<64x4096xf32>
}
