module {
  func.func @kb_conv1d(%arg0: tensor<16x3x512xf32> {bufferization.writable = false}, %arg1: tensor<64x3x3xf32> {bufferization.writable = false}) -> tensor<16x64x510xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<16x64x510xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<16x64x510xf32>) -> tensor<16x64x510xf32>
    %2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, qimeng.tag = "conv0", strides = dense<1> : tensor<1xi64>} ins(%arg0, %arg1 : tensor<16x3x512xf32>, tensor<64x3x3xf32>) outs(%1 : tensor<16x64x510xf32>) -> tensor<16x64x510xf32>
    return %2 : tensor<16x64x510xf32>
  }
  qimeng.plan @kb_conv1d provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 256] to block
    qimeng.tile "fill0" [1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 256, 0, 0] to block
    qimeng.tile "conv0" [1, 1, 1, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


