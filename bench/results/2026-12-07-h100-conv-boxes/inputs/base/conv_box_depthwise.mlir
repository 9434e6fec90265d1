#map = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
module {
  func.func @conv_box_depthwise(%arg0: tensor<8x16x130x130xf32> {bufferization.writable = false}, %arg1: tensor<16x3x3xf32> {bufferization.writable = false}) -> tensor<8x16x128x128xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<8x16x128x128xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<8x16x130x130xf32>, tensor<16x3x3xf32>) outs(%1 : tensor<8x16x128x128xf32>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %3 = arith.mulf %in, %in_0 : f32
      %4 = arith.addf %out, %3 : f32
      linalg.yield %4 : f32
    } -> tensor<8x16x128x128xf32>
    return %2 : tensor<8x16x128x128xf32>
  }
  qimeng.plan @conv_box_depthwise provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 2, 128] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 2, 128, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


