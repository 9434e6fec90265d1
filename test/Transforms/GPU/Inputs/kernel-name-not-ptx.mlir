// A kernel whose name is neither valid UTF-8 nor a PTX identifier: the
// compile report names it with U+FFFD, and --lower-to-nvvm reports the
// name instead of aborting in the NVPTX backend (found by fuzzing,
// docs/fuzzing.md).
func.func @"r\FFx"(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%y : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
