#map = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d0, d5, d3 + d6, d4 + d7)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d0, d5, d6, d7)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
module {
  func.func @long_sums_too_few_filters(%arg0: tensor<2x32x10x10xf32> {bufferization.writable = false}, %arg1: tensor<23x32x3x3xf32> {bufferization.writable = false}, %arg2: tensor<2x23x8x8xf32> {bufferization.writable = true}) -> tensor<2x23x8x8xf32> {
    %expanded = tensor.expand_shape %arg0 [[0], [1, 2], [3], [4]] output_shape [2, 4, 8, 10, 10] : tensor<2x32x10x10xf32> into tensor<2x4x8x10x10xf32>
    %expanded_0 = tensor.expand_shape %arg1 [[0], [1, 2], [3], [4]] output_shape [23, 4, 8, 3, 3] : tensor<23x32x3x3xf32> into tensor<23x4x8x3x3xf32>
    %0 = tensor.empty() : tensor<4x2x23x8x8xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<4x2x23x8x8xf32>) -> tensor<4x2x23x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%expanded, %expanded_0 : tensor<2x4x8x10x10xf32>, tensor<23x4x8x3x3xf32>) outs(%1 : tensor<4x2x23x8x8xf32>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %4 = arith.mulf %in, %in_1 : f32
      %5 = arith.addf %out, %4 : f32
      linalg.yield %5 : f32
    } -> tensor<4x2x23x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<4x2x23x8x8xf32>) outs(%arg2 : tensor<2x23x8x8xf32>) attrs =  {qimeng.tag = "reduction0"} {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<2x23x8x8xf32>
    return %3 : tensor<2x23x8x8xf32>
  }
  qimeng.plan @long_sums_too_few_filters provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 4, 8, 8] to block
    qimeng.tile "fill0" [0, 0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 4, 8, 8, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.tile "reduction0" [0, 1, 4, 8, 8] to block
    qimeng.tile "reduction0" [0, 0, 1, 1, 1] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


