module {
  func.func @grouped(%arg0: tensor<2x4x2x70x70xf32> {bufferization.writable = false}, %arg1: tensor<16x4x2x3x3xf32> {bufferization.writable = false}) -> tensor<2x4x16x68x68xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x4x16x68x68xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<2x4x16x68x68xf32>) -> tensor<2x4x16x68x68xf32>
    %2 = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, qimeng.tag = "conv0", strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<2x4x2x70x70xf32>, tensor<16x4x2x3x3xf32>) outs(%1 : tensor<2x4x16x68x68xf32>) -> tensor<2x4x16x68x68xf32>
    return %2 : tensor<2x4x16x68x68xf32>
  }
  qimeng.plan @grouped provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 1, 2, 68] to block
    qimeng.tile "fill0" [0, 0, 1, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 1, 2, 68, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


