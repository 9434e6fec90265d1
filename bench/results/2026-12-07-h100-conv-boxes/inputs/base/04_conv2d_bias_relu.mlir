#map = affine_map<(d0, d1, d2, d3) -> (d1)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @conv2d_bias_relu(%arg0: tensor<128x3x32x32xf32> {bufferization.writable = false}, %arg1: tensor<16x3x3x3xf32> {bufferization.writable = false}, %arg2: tensor<16xf32> {bufferization.writable = false}, %arg3: tensor<128x16x30x30xf32> {bufferization.writable = true}) -> tensor<128x16x30x30xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%arg3 : tensor<128x16x30x30xf32>) -> tensor<128x16x30x30xf32>
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, qimeng.tag = "conv0", strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<128x3x32x32xf32>, tensor<16x3x3x3xf32>) outs(%0 : tensor<128x16x30x30xf32>) -> tensor<128x16x30x30xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<16xf32>) outs(%1 : tensor<128x16x30x30xf32>) attrs =  {qimeng.tag = "elementwise0"} {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.addf %out, %in : f32
      %4 = arith.maximumf %3, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<128x16x30x30xf32>
    return %2 : tensor<128x16x30x30xf32>
  }
  qimeng.plan @conv2d_bias_relu provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 8, 32] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 8, 32, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.tile "elementwise0" [1, 1, 8, 32] to block
    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


