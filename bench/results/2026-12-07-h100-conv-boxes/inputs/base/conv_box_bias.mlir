#map = affine_map<(d0, d1, d2, d3) -> (d1)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @bias(%arg0: tensor<8x3x258x258xf32> {bufferization.writable = false}, %arg1: tensor<24x3x3x3xf32> {bufferization.writable = false}, %arg2: tensor<24xf32> {bufferization.writable = false}, %arg3: tensor<8x24x128x128xf32> {bufferization.writable = true}) -> tensor<8x24x128x128xf32> {
    %0 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<24xf32>) outs(%arg3 : tensor<8x24x128x128xf32>) attrs =  {qimeng.tag = "elementwise0"} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x24x128x128xf32>
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, qimeng.tag = "conv0", strides = dense<2> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<8x3x258x258xf32>, tensor<24x3x3x3xf32>) outs(%0 : tensor<8x24x128x128xf32>) -> tensor<8x24x128x128xf32>
    return %1 : tensor<8x24x128x128xf32>
  }
  qimeng.plan @bias provenance "builtin" {
    qimeng.tile "elementwise0" [1, 1, 2, 128] to block
    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 2, 128, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "elementwise0"
  }
}


