#map = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2 + d5)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3 + d6)>
module {
  func.func @conv_box_padded(%arg0: tensor<8x3x128x128xf32> {bufferization.writable = false}, %arg1: tensor<32x3x3x3xf32> {bufferization.writable = false}) -> tensor<8x32x128x128xf32> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c127 = arith.constant 127 : index
    %0 = tensor.empty() : tensor<8x32x128x128xf32>
    %1 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32) outs(%0 : tensor<8x32x128x128xf32>) -> tensor<8x32x128x128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg1 : tensor<32x3x3x3xf32>) outs(%1 : tensor<8x32x128x128xf32>) attrs =  {qimeng.tag = "reduction0"} {
    ^bb0(%in: f32, %out: f32):
      %3 = linalg.index 0 : index
      %4 = linalg.index 1 : index
      %5 = linalg.index 2 : index
      %6 = linalg.index 3 : index
      %7 = linalg.index 4 : index
      %8 = linalg.index 5 : index
      %9 = linalg.index 6 : index
      %10 = affine.apply #map2(%3, %4, %5, %6, %7, %8, %9)
      %11 = affine.apply #map3(%3, %4, %5, %6, %7, %8, %9)
      %12 = arith.subi %10, %c1 : index
      %13 = arith.cmpi sge, %12, %c0 : index
      %14 = arith.cmpi sle, %12, %c127 : index
      %15 = arith.andi %13, %14 : i1
      %16 = arith.minsi %12, %c127 : index
      %17 = arith.maxsi %16, %c0 : index
      %18 = arith.subi %11, %c1 : index
      %19 = arith.cmpi sge, %18, %c0 : index
      %20 = arith.cmpi sle, %18, %c127 : index
      %21 = arith.andi %19, %20 : i1
      %22 = arith.andi %15, %21 : i1
      %23 = arith.minsi %18, %c127 : index
      %24 = arith.maxsi %23, %c0 : index
      %extracted = tensor.extract %arg0[%3, %7, %17, %24] : tensor<8x3x128x128xf32>
      %25 = arith.select %22, %extracted, %cst : f32
      %26 = arith.mulf %25, %in : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<8x32x128x128xf32>
    return %2 : tensor<8x32x128x128xf32>
  }
  qimeng.plan @conv_box_padded provenance "builtin" {
    qimeng.tile "fill0" [1, 1, 2, 128] to block
    qimeng.tile "fill0" [0, 1, 1, 1] to thread
    qimeng.tile "reduction0" [1, 1, 2, 128, 0, 0, 0] to block
    qimeng.tile "reduction0" [0, 1, 1, 1, 0, 0, 0] to thread
    qimeng.fuse "reduction0" producer "fill0"
  }
}


