#map = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
module {
  func.func @depthwise_conv2d(%arg0: tensor<16x3x256x256xf32> {bufferization.writable = false}, %arg1: tensor<3x3x3xf32> {bufferization.writable = false}, %arg2: tensor<16x3x254x254xf32> {bufferization.writable = true}) -> tensor<16x3x254x254xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%arg2 : tensor<16x3x254x254xf32>) -> tensor<16x3x254x254xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<16x3x256x256xf32>, tensor<3x3x3xf32>) outs(%0 : tensor<16x3x254x254xf32>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %2 = arith.mulf %in, %in_0 : f32
      %3 = arith.addf %out, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<16x3x254x254xf32>
    return %1 : tensor<16x3x254x254xf32>
  }
  qimeng.plan @depthwise_conv2d provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 1, 256] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 1, 256, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


