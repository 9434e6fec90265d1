#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @kernel(%arg0: tensor<16x96x32x32xf16> {bufferization.writable = false}, %arg1: tensor<8x96x3x3xf16> {bufferization.writable = false}) -> tensor<16x8x32x32xf16> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %cst = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<16x96x34x34xf16>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%0 : tensor<16x96x34x34xf16>) attrs =  {qimeng.tag = "elementwise0"} {
    ^bb0(%out: f16):
      %5 = linalg.index 0 : index
      %6 = linalg.index 1 : index
      %7 = linalg.index 2 : index
      %8 = linalg.index 3 : index
      %9 = arith.subi %7, %c1 : index
      %10 = arith.cmpi sge, %9, %c0 : index
      %11 = arith.cmpi sle, %9, %c31 : index
      %12 = arith.andi %10, %11 : i1
      %13 = arith.minsi %9, %c31 : index
      %14 = arith.maxsi %13, %c0 : index
      %15 = arith.subi %8, %c1 : index
      %16 = arith.cmpi sge, %15, %c0 : index
      %17 = arith.cmpi sle, %15, %c31 : index
      %18 = arith.andi %16, %17 : i1
      %19 = arith.andi %12, %18 : i1
      %20 = arith.minsi %15, %c31 : index
      %21 = arith.maxsi %20, %c0 : index
      %extracted = tensor.extract %arg0[%5, %6, %14, %21] : tensor<16x96x32x32xf16>
      %22 = arith.select %19, %extracted, %cst : f16
      linalg.yield %22 : f16
    } -> tensor<16x96x34x34xf16>
    %2 = tensor.empty() : tensor<16x8x32x32xf16>
    %3 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f16) outs(%2 : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, qimeng.tag = "conv0", strides = dense<1> : vector<2xi64>} ins(%1, %arg1 : tensor<16x96x34x34xf16>, tensor<8x96x3x3xf16>) outs(%3 : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
    return %4 : tensor<16x8x32x32xf16>
  }
  qimeng.plan @kernel provenance "builtin" {
    qimeng.tile "elementwise0" [1, 1, 7, 34] to block
    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
    qimeng.tile "fill0" [1, 8, 4, 32] to block
    qimeng.tile "fill0" [0, 8, 1, 2] to thread
    qimeng.tile "conv0" [1, 8, 4, 32, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 8, 1, 2, 0, 0, 0] to thread
    qimeng.fuse "conv0" producer "fill0"
  }
}


