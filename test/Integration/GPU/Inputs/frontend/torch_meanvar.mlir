// torch.export of a small model (meanvar), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0) -> (d0)>
module {
  func.func @forward(%arg0: tensor<65x999xf32>) -> tensor<65xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 9.980000e+02 : f64
    %cst_2 = arith.constant 9.990000e+02 : f64
    %cst_3 = arith.constant 9.990000e+02 : f32
    %0 = tensor.empty() : tensor<65x999xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<65x999xf32>) outs(%0 : tensor<65x999xf64>) {
    ^bb0(%in: f32, %out: f64):
      %18 = arith.extf %in : f32 to f64
      linalg.yield %18 : f64
    } -> tensor<65x999xf64>
    %2 = tensor.empty() : tensor<65x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<65x1xf64>) -> tensor<65x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<65x999xf64>) outs(%3 : tensor<65x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %18 = arith.addf %in, %out : f64
      linalg.yield %18 : f64
    } -> tensor<65x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<65x1xf64>) outs(%2 : tensor<65x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %18 = arith.divf %in, %cst_2 : f64
      linalg.yield %18 : f64
    } -> tensor<65x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %5 : tensor<65x999xf64>, tensor<65x1xf64>) outs(%0 : tensor<65x999xf64>) {
    ^bb0(%in: f64, %in_4: f64, %out: f64):
      %18 = arith.subf %in, %in_4 : f64
      linalg.yield %18 : f64
    } -> tensor<65x999xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %6 : tensor<65x999xf64>, tensor<65x999xf64>) outs(%0 : tensor<65x999xf64>) {
    ^bb0(%in: f64, %in_4: f64, %out: f64):
      %18 = arith.mulf %in, %in_4 : f64
      linalg.yield %18 : f64
    } -> tensor<65x999xf64>
    %8 = tensor.empty() : tensor<65xf64>
    %9 = linalg.fill ins(%cst : f64) outs(%8 : tensor<65xf64>) -> tensor<65xf64>
    %10 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<65x999xf64>) outs(%9 : tensor<65xf64>) {
    ^bb0(%in: f64, %out: f64):
      %18 = arith.addf %in, %out : f64
      linalg.yield %18 : f64
    } -> tensor<65xf64>
    %11 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%10 : tensor<65xf64>) outs(%8 : tensor<65xf64>) {
    ^bb0(%in: f64, %out: f64):
      %18 = arith.divf %in, %cst_1 : f64
      linalg.yield %18 : f64
    } -> tensor<65xf64>
    %12 = tensor.empty() : tensor<65xf32>
    %13 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%11 : tensor<65xf64>) outs(%12 : tensor<65xf32>) {
    ^bb0(%in: f64, %out: f32):
      %18 = arith.truncf %in : f64 to f32
      linalg.yield %18 : f32
    } -> tensor<65xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<65xf32>) -> tensor<65xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<65x999xf32>) outs(%14 : tensor<65xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.addf %in, %out : f32
      linalg.yield %18 : f32
    } -> tensor<65xf32>
    %16 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%15 : tensor<65xf32>) outs(%12 : tensor<65xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.divf %in, %cst_3 : f32
      linalg.yield %18 : f32
    } -> tensor<65xf32>
    %17 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%13, %16 : tensor<65xf32>, tensor<65xf32>) outs(%12 : tensor<65xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %18 = arith.addf %in, %in_4 : f32
      linalg.yield %18 : f32
    } -> tensor<65xf32>
    return %17 : tensor<65xf32>
  }
}

