module {
  func.func @kernel(%arg0: tensor<4x3x112x112xf16> {bufferization.writable = false}, %arg1: tensor<128x3x1x1xf16> {bufferization.writable = false}) -> tensor<4x128x56x56xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<4x128x56x56xf16>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f16) outs(%0 : tensor<4x128x56x56xf16>) -> tensor<4x128x56x56xf16>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, qimeng.tag = "conv0", strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<4x3x112x112xf16>, tensor<128x3x1x1xf16>) outs(%1 : tensor<4x128x56x56xf16>) -> tensor<4x128x56x56xf16>
    return %2 : tensor<4x128x56x56xf16>
  }
  qimeng.plan @kernel provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 4, 64] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 4, 64, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


