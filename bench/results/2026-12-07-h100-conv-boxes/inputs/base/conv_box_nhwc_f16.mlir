module {
  func.func @conv_box_nhwc_f16(%arg0: tensor<8x130x130x3xf16> {bufferization.writable = false}, %arg1: tensor<3x3x3x32xf16> {bufferization.writable = false}) -> tensor<8x128x128x32xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<8x128x128x32xf16>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f16) outs(%0 : tensor<8x128x128x32xf16>) -> tensor<8x128x128x32xf16>
    %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, qimeng.tag = "conv0", strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<8x130x130x3xf16>, tensor<3x3x3x32xf16>) outs(%1 : tensor<8x128x128x32xf16>) -> tensor<8x128x128x32xf16>
    return %2 : tensor<8x128x128x32xf16>
  }
  qimeng.plan @conv_box_nhwc_f16 provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 8, 32] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 8, 32, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


