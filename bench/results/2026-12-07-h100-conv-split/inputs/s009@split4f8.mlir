#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d0, d5, d3 + d6, d4 + d7)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d0, d5, d6, d7)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
module {
  func.func @kernel(%arg0: tensor<16x96x32x32xf16> {bufferization.writable = false}, %arg1: tensor<8x96x3x3xf16> {bufferization.writable = false}) -> tensor<16x8x32x32xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %cst_0 = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<16x96x34x34xf16>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%0 : tensor<16x96x34x34xf16>) attrs =  {qimeng.tag = "elementwise0"} {
    ^bb0(%out: f16):
      %10 = linalg.index 0 : index
      %11 = linalg.index 1 : index
      %12 = linalg.index 2 : index
      %13 = linalg.index 3 : index
      %14 = arith.subi %12, %c1 : index
      %15 = arith.cmpi sge, %14, %c0 : index
      %16 = arith.cmpi sle, %14, %c31 : index
      %17 = arith.andi %15, %16 : i1
      %18 = arith.minsi %14, %c31 : index
      %19 = arith.maxsi %18, %c0 : index
      %20 = arith.subi %13, %c1 : index
      %21 = arith.cmpi sge, %20, %c0 : index
      %22 = arith.cmpi sle, %20, %c31 : index
      %23 = arith.andi %21, %22 : i1
      %24 = arith.andi %17, %23 : i1
      %25 = arith.minsi %20, %c31 : index
      %26 = arith.maxsi %25, %c0 : index
      %extracted = tensor.extract %arg0[%10, %11, %19, %26] : tensor<16x96x32x32xf16>
      %27 = arith.select %24, %extracted, %cst_0 : f16
      linalg.yield %27 : f16
    } -> tensor<16x96x34x34xf16>
    %expanded = tensor.expand_shape %1 [[0], [1, 2], [3], [4]] output_shape [16, 4, 24, 34, 34] : tensor<16x96x34x34xf16> into tensor<16x4x24x34x34xf16>
    %expanded_1 = tensor.expand_shape %arg1 [[0], [1, 2], [3], [4]] output_shape [8, 4, 24, 3, 3] : tensor<8x96x3x3xf16> into tensor<8x4x24x3x3xf16>
    %2 = tensor.empty() : tensor<4x16x8x32x32xf32>
    %3 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%2 : tensor<4x16x8x32x32xf32>) -> tensor<4x16x8x32x32xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%expanded, %expanded_1 : tensor<16x4x24x34x34xf16>, tensor<8x4x24x3x3xf16>) outs(%3 : tensor<4x16x8x32x32xf32>) attrs =  {qimeng.tag = "conv0"} {
    ^bb0(%in: f16, %in_2: f16, %out: f32):
      %10 = arith.mulf %in, %in_2 : f16
      %11 = arith.extf %10 : f16 to f32
      %12 = arith.addf %out, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16x8x32x32xf32>
    %5 = tensor.empty() : tensor<16x8x32x32xf16>
    %6 = tensor.empty() : tensor<16x8x32x32xf32>
    %7 = linalg.fill {qimeng.tag = "fill1"} ins(%cst : f32) outs(%6 : tensor<16x8x32x32xf32>) -> tensor<16x8x32x32xf32>
    %8 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%4 : tensor<4x16x8x32x32xf32>) outs(%7 : tensor<16x8x32x32xf32>) attrs =  {qimeng.tag = "reduction0"} {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.truncf %in : f32 to f16
      %11 = arith.extf %10 : f16 to f32
      %12 = arith.addf %out, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<16x8x32x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<16x8x32x32xf32>) outs(%5 : tensor<16x8x32x32xf16>) attrs =  {qimeng.tag = "elementwise1"} {
    ^bb0(%in: f32, %out: f16):
      %10 = arith.truncf %in : f32 to f16
      linalg.yield %10 : f16
    } -> tensor<16x8x32x32xf16>
    return %9 : tensor<16x8x32x32xf16>
  }
  qimeng.plan @kernel provenance "builtin" {
    qimeng.tile "elementwise0" [1, 1, 7, 34] to block
    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
    qimeng.tile "fill0" [1, 1, 8, 2, 32] to block
    qimeng.tile "fill0" [0, 0, 8, 1, 1] to thread
    qimeng.tile "conv0" [1, 1, 8, 2, 32, 0, 0, 0] to block
    qimeng.tile "conv0" [0, 0, 8, 1, 1, 0, 0, 0] to thread
    qimeng.tile "fill1" [1, 1, 32, 32] to block
    qimeng.tile "fill1" [0, 1, 1, 4] to thread
    qimeng.vectorize "fill1" width 4
    qimeng.tile "reduction0" [1, 1, 8, 32, 0] to block
    qimeng.tile "reduction0" [0, 1, 1, 1, 0] to thread
    qimeng.tile "elementwise1" [1, 1, 32, 32] to block
    qimeng.tile "elementwise1" [0, 1, 1, 4] to thread
    qimeng.vectorize "elementwise1" width 4
    qimeng.fuse "conv0" producer "fill0"
  }
}


