#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d0, d5, d3 + d6, d4 + d7)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d0, d5, d6, d7)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
module {
  func.func @kernel(%arg0: tensor<16x96x32x32xf16> {bufferization.writable = false}, %arg1: tensor<8x96x3x3xf16> {bufferization.writable = false}) -> tensor<16x8x32x32xf16> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %cst = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<16x96x34x34xf16>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%0 : tensor<16x96x34x34xf16>) attrs =  {qimeng.tag = "elementwise0"} {
    ^bb0(%out: f16):
      %8 = linalg.index 0 : index
      %9 = linalg.index 1 : index
      %10 = linalg.index 2 : index
      %11 = linalg.index 3 : index
      %12 = arith.subi %10, %c1 : index
      %13 = arith.cmpi sge, %12, %c0 : index
      %14 = arith.cmpi sle, %12, %c31 : index
      %15 = arith.andi %13, %14 : i1
      %16 = arith.minsi %12, %c31 : index
      %17 = arith.maxsi %16, %c0 : index
      %18 = arith.subi %11, %c1 : index
      %19 = arith.cmpi sge, %18, %c0 : index
      %20 = arith.cmpi sle, %18, %c31 : index
      %21 = arith.andi %19, %20 : i1
      %22 = arith.andi %15, %21 : i1
      %23 = arith.minsi %18, %c31 : index
      %24 = arith.maxsi %23, %c0 : index
      %extracted = tensor.extract %arg0[%8, %9, %17, %24] : tensor<16x96x32x32xf16>
      %25 = arith.select %22, %extracted, %cst : f16
      linalg.yield %25 : f16
    } -> tensor<16x96x34x34xf16>
    %2 = tensor.empty() : tensor<16x8x32x32xf16>
    %3 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f16) outs(%2 : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
    %expanded = tensor.expand_shape %1 [[0], [1, 2], [3], [4]] output_shape [16, 8, 12, 34, 34] : tensor<16x96x34x34xf16> into tensor<16x8x12x34x34xf16>
    %expanded_0 = tensor.expand_shape %arg1 [[0], [1, 2], [3], [4]] output_shape [8, 8, 12, 3, 3] : tensor<8x96x3x3xf16> into tensor<8x8x12x3x3xf16>
    %4 = tensor.empty() : tensor<8x16x8x32x32xf16>
    %cst_1 = arith.constant 0.000000e+00 : f16
    %5 = linalg.fill {qimeng.tag = "fill1"} ins(%cst_1 : f16) outs(%4 : tensor<8x16x8x32x32xf16>) -> tensor<8x16x8x32x32xf16>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%expanded, %expanded_0 : tensor<16x8x12x34x34xf16>, tensor<8x8x12x3x3xf16>) outs(%5 : tensor<8x16x8x32x32xf16>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %8 = arith.mulf %in, %in_2 : f16
      %9 = arith.addf %out, %8 : f16
      linalg.yield %9 : f16
    } -> tensor<8x16x8x32x32xf16>
    %7 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<8x16x8x32x32xf16>) outs(%3 : tensor<16x8x32x32xf16>) attrs =  {qimeng.tag = "reduction0"} {
    ^bb0(%in: f16, %out: f16):
      %8 = arith.addf %in, %out : f16
      linalg.yield %8 : f16
    } -> tensor<16x8x32x32xf16>
    return %7 : tensor<16x8x32x32xf16>
  }
  qimeng.plan @kernel provenance "builtin" {
    qimeng.tile "elementwise0" [1, 1, 7, 34] to block
    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
    qimeng.tile "fill0" [1, 1, 8, 32] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "fill1" [1, 1, 4, 8, 32] to block
    qimeng.tile "fill1" [0, 0, 4, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 4, 8, 32, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 0, 4, 1, 1, 0, 0, 0] to thread
    qimeng.tile "reduction0" [0, 1, 1, 8, 32] to block
    qimeng.tile "reduction0" [0, 0, 1, 1, 1] to thread
    qimeng.fuse "reduction0" producer "fill0"
    qimeng.fuse "conv0" producer "fill1"
  }
}


