// torch.export of a small model (sdpa), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @forward(%arg0: tensor<2x4x64x64xf32>, %arg1: tensor<2x4x64x64xf32>, %arg2: tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.250000e-01 : f32
    %0 = tensor.empty() : tensor<2x4x64x64xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x64x64xf32>) outs(%0 : tensor<2x4x64x64xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x64x64xf32> into tensor<8x64x64xf32>
    %collapsed_2 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x64x64xf32> into tensor<8x64x64xf32>
    %1 = tensor.empty() : tensor<8x64x64xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_2 : tensor<8x64x64xf32>, tensor<8x64x64xf32>) outs(%2 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf32> into tensor<2x4x64x64xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x64x64xf32>) outs(%0 : tensor<2x4x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.mulf %in, %cst_1 : f32
      linalg.yield %17 : f32
    } -> tensor<2x4x64x64xf32>
    %5 = tensor.empty() : tensor<2x4x64xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<2x4x64xi64>) -> tensor<2x4x64xi64>
    %7 = tensor.empty() : tensor<2x4x64xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%4 : tensor<2x4x64x64xf32>) outs(%8, %6 : tensor<2x4x64xf32>, tensor<2x4x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_7: i64):
      %17 = linalg.index 3 : index
      %18 = arith.index_cast %17 : index to i64
      %19 = arith.maximumf %in, %out : f32
      %20 = arith.cmpf ogt, %in, %out : f32
      %21 = arith.select %20, %18, %out_7 : i64
      linalg.yield %19, %21 : f32, i64
    } -> (tensor<2x4x64xf32>, tensor<2x4x64xi64>)
    %expanded_3 = tensor.expand_shape %9#0 [[0], [1], [2, 3]] output_shape [2, 4, 64, 1] : tensor<2x4x64xf32> into tensor<2x4x64x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_3 : tensor<2x4x64x64xf32>, tensor<2x4x64x1xf32>) outs(%0 : tensor<2x4x64x64xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %17 = arith.subf %in, %in_7 : f32
      linalg.yield %17 : f32
    } -> tensor<2x4x64x64xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x4x64x64xf32>) outs(%0 : tensor<2x4x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = math.exp %in : f32
      linalg.yield %17 : f32
    } -> tensor<2x4x64x64xf32>
    %12 = tensor.empty() : tensor<2x4x64x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x4x64x1xf32>) -> tensor<2x4x64x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%11 : tensor<2x4x64x64xf32>) outs(%13 : tensor<2x4x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<2x4x64x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<2x4x64x64xf32>, tensor<2x4x64x1xf32>) outs(%0 : tensor<2x4x64x64xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %17 = arith.divf %in, %in_7 : f32
      linalg.yield %17 : f32
    } -> tensor<2x4x64x64xf32>
    %collapsed_4 = tensor.collapse_shape %15 [[0, 1], [2], [3]] : tensor<2x4x64x64xf32> into tensor<8x64x64xf32>
    %collapsed_5 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x64x64xf32> into tensor<8x64x64xf32>
    %16 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<8x64x64xf32>, tensor<8x64x64xf32>) outs(%2 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
    %expanded_6 = tensor.expand_shape %16 [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf32> into tensor<2x4x64x64xf32>
    return %expanded_6 : tensor<2x4x64x64xf32>
  }
}

