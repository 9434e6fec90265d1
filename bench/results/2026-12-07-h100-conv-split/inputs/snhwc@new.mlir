#map = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2 + d5, d3 + d6, d0, d7)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d0, d7, d4)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
module {
  func.func @nhwc(%arg0: tensor<4x18x18x256xf32> {bufferization.writable = false}, %arg1: tensor<3x3x256x16xf32> {bufferization.writable = false}) -> tensor<4x16x16x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16x16x16xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2], [3, 4]] output_shape [4, 18, 18, 32, 8] : tensor<4x18x18x256xf32> into tensor<4x18x18x32x8xf32>
    %expanded_0 = tensor.expand_shape %arg1 [[0], [1], [2, 3], [4]] output_shape [3, 3, 32, 8, 16] : tensor<3x3x256x16xf32> into tensor<3x3x32x8x16xf32>
    %2 = tensor.empty() : tensor<32x4x16x16x16xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %3 = linalg.fill {qimeng.tag = "fill1"} ins(%cst_1 : f32) outs(%2 : tensor<32x4x16x16x16xf32>) -> tensor<32x4x16x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%expanded, %expanded_0 : tensor<4x18x18x32x8xf32>, tensor<3x3x32x8x16xf32>) outs(%3 : tensor<32x4x16x16x16xf32>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %6 = arith.mulf %in, %in_2 : f32
      %7 = arith.addf %out, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<32x4x16x16x16xf32>
    %5 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<32x4x16x16x16xf32>) outs(%1 : tensor<4x16x16x16xf32>) attrs =  {qimeng.tag = "reduction0"} {
    ^bb0(%in: f32, %out: f32):
      %6 = arith.addf %in, %out : f32
      linalg.yield %6 : f32
    } -> tensor<4x16x16x16xf32>
    return %5 : tensor<4x16x16x16xf32>
  }
  qimeng.plan @nhwc provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 16, 16] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "fill1" [1, 1, 2, 16, 16] to block
    qimeng.tile "fill1" [0, 0, 1, 1, 2] to thread
    qimeng.tile "conv0" [1, 1, 2, 16, 16, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 0, 1, 1, 2, 0, 0, 0] to thread
    qimeng.tile "reduction0" [0, 1, 1, 16, 16] to block
    qimeng.tile "reduction0" [0, 0, 1, 1, 1] to thread
    qimeng.fuse "reduction0" producer "fill0"
    qimeng.fuse "conv0" producer "fill1"
  }
}


