module {
  func.func @kernel(%arg0: tensor<3x256x256xf64> {bufferization.writable = false}, %arg1: tensor<3x256x1024xf64> {bufferization.writable = false}) -> tensor<3x256x1024xf64> {
    %cst = arith.constant 0.000000e+00 : f64
    %0 = tensor.empty() : tensor<3x256x1024xf64>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f64) outs(%0 : tensor<3x256x1024xf64>) -> tensor<3x256x1024xf64>
    %2 = linalg.batch_matmul {qimeng.tag = "contraction0"} ins(%arg0, %arg1 : tensor<3x256x256xf64>, tensor<3x256x1024xf64>) outs(%1 : tensor<3x256x1024xf64>) -> tensor<3x256x1024xf64>
    return %2 : tensor<3x256x1024xf64>
  }
  qimeng.plan @kernel provenance "builtin" attributes {qimeng.replaceable} {
    qimeng.tile "fill0" [1, 1, 512] to block
    qimeng.tile "fill0" [1, 1, 2] to thread
    qimeng.vectorize "fill0" width 2
    qimeng.tile "contraction0" [1, 64, 64, 0] to block
    qimeng.tile "contraction0" [0, 0, 0, 16] to reduction
    qimeng.promote "contraction0" operands [0, 1]
    qimeng.tile "contraction0" [0, 32, 32, 0] to warp
    qimeng.vectorize "contraction0" width 2
    qimeng.mma "contraction0" mma_sync [8, 8, 4] (f64, f64) -> f64
    qimeng.pipeline "contraction0" stages 2
  }
}

