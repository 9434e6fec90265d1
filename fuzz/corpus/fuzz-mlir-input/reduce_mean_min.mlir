// Mean and min over the middle dimension of a 3-D tensor: 64x1024x256 f32.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
#id = affine_map<(b, c) -> (b, c)>
func.func @reduce_mean_min(%x: tensor<64x1024x256xf32>, %mean: tensor<64x256xf32>,
                           %min: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %n = arith.constant 1024.0 : f32
  %s0 = linalg.fill ins(%zero : f32) outs(%mean : tensor<64x256xf32>) -> tensor<64x256xf32>
  %sum = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<64x1024x256xf32>) outs(%s0 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %avg = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%sum : tensor<64x256xf32>) {
  ^bb0(%acc: f32):
    %r = arith.divf %acc, %n : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %m0 = linalg.fill ins(%inf : f32) outs(%min : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mn = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<64x1024x256xf32>) outs(%m0 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.minimumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %avg, %mn : tensor<64x256xf32>, tensor<64x256xf32>
}
