// torch.export of a small model (layernorm), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%arg0: tensor<768xf32>, %arg1: tensor<768xf32>, %arg2: tensor<128x768xf32>) -> tensor<128x768xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e-05 : f64
    %cst_2 = arith.constant 7.680000e+02 : f64
    %cst_3 = arith.constant 7.680000e+02 : f32
    %0 = tensor.empty() : tensor<128x768xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<128x768xf32>) outs(%0 : tensor<128x768xf64>) {
    ^bb0(%in: f32, %out: f64):
      %22 = arith.extf %in : f32 to f64
      linalg.yield %22 : f64
    } -> tensor<128x768xf64>
    %2 = tensor.empty() : tensor<128x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<128x1xf64>) -> tensor<128x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<128x768xf64>) outs(%3 : tensor<128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %22 = arith.addf %in, %out : f64
      linalg.yield %22 : f64
    } -> tensor<128x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<128x1xf64>) outs(%2 : tensor<128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %22 = arith.divf %in, %cst_2 : f64
      linalg.yield %22 : f64
    } -> tensor<128x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %5 : tensor<128x768xf64>, tensor<128x1xf64>) outs(%0 : tensor<128x768xf64>) {
    ^bb0(%in: f64, %in_4: f64, %out: f64):
      %22 = arith.subf %in, %in_4 : f64
      linalg.yield %22 : f64
    } -> tensor<128x768xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %6 : tensor<128x768xf64>, tensor<128x768xf64>) outs(%0 : tensor<128x768xf64>) {
    ^bb0(%in: f64, %in_4: f64, %out: f64):
      %22 = arith.mulf %in, %in_4 : f64
      linalg.yield %22 : f64
    } -> tensor<128x768xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<128x768xf64>) outs(%3 : tensor<128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %22 = arith.addf %in, %out : f64
      linalg.yield %22 : f64
    } -> tensor<128x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<128x1xf64>) outs(%2 : tensor<128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %22 = arith.divf %in, %cst_2 : f64
      linalg.yield %22 : f64
    } -> tensor<128x1xf64>
    %10 = tensor.empty() : tensor<128x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<128x1xf64>) outs(%10 : tensor<128x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %22 = arith.truncf %in : f64 to f32
      linalg.yield %22 : f32
    } -> tensor<128x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<128x1xf32>) -> tensor<128x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg2 : tensor<128x768xf32>) outs(%12 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<128x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<128x1xf32>) outs(%10 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_3 : f32
      linalg.yield %22 : f32
    } -> tensor<128x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<128x1xf32>) outs(%10 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.truncf %cst_1 : f64 to f32
      %23 = arith.addf %in, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<128x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<128x1xf32>) outs(%10 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.rsqrt %in : f32
      linalg.yield %22 : f32
    } -> tensor<128x1xf32>
    %17 = tensor.empty() : tensor<128x768xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2, %14 : tensor<128x768xf32>, tensor<128x1xf32>) outs(%17 : tensor<128x768xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.subf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<128x768xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %16 : tensor<128x768xf32>, tensor<128x1xf32>) outs(%17 : tensor<128x768xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.mulf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<128x768xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %arg0 : tensor<128x768xf32>, tensor<768xf32>) outs(%17 : tensor<128x768xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.mulf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<128x768xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %arg1 : tensor<128x768xf32>, tensor<768xf32>) outs(%17 : tensor<128x768xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.addf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<128x768xf32>
    return %21 : tensor<128x768xf32>
  }
}

