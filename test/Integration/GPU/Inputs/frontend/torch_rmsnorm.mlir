// torch.export of a small model (rmsnorm), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @forward(%arg0: tensor<128x4096xf32>) -> tensor<128x4096xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 4.096000e+03 : f32
    %0 = tensor.empty() : tensor<128x4096xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<128x4096xf32>) outs(%0 : tensor<128x4096xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %9 : f32
    } -> tensor<128x4096xf32>
    %2 = tensor.empty() : tensor<128x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<128x1xf32>) -> tensor<128x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<128x4096xf32>) outs(%3 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.addf %in, %out : f32
      linalg.yield %9 : f32
    } -> tensor<128x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<128x1xf32>) outs(%2 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.divf %in, %cst_1 : f32
      linalg.yield %9 : f32
    } -> tensor<128x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<128x1xf32>) outs(%2 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.truncf %cst_0 : f64 to f32
      %10 = arith.addf %in, %9 : f32
      linalg.yield %10 : f32
    } -> tensor<128x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<128x1xf32>) outs(%2 : tensor<128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = math.rsqrt %in : f32
      linalg.yield %9 : f32
    } -> tensor<128x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<128x4096xf32>, tensor<128x1xf32>) outs(%0 : tensor<128x4096xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.mulf %in, %in_2 : f32
      linalg.yield %9 : f32
    } -> tensor<128x4096xf32>
    return %8 : tensor<128x4096xf32>
  }
}

