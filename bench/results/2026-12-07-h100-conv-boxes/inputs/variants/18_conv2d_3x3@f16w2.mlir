module {
  func.func @conv2d_3x3(%arg0: tensor<16x3x256x256xf32> {bufferization.writable = false}, %arg1: tensor<64x3x3x3xf32> {bufferization.writable = false}) -> tensor<16x64x254x254xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<16x64x254x254xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, qimeng.tag = "conv0", strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<16x3x256x256xf32>, tensor<64x3x3x3xf32>) outs(%1 : tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32>
    return %2 : tensor<16x64x254x254xf32>
  }
  qimeng.plan @conv2d_3x3 provenance "builtin" {
    qimeng.tile "fill0" [1, 16, 1, 254] to block
    qimeng.tile "fill0" [0, 16, 1, 2] to thread
    qimeng.tile "conv0" [1, 16, 1, 254, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 16, 1, 2, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


