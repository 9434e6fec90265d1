// torch.export of a small model (swiglu), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<77x1100xf32>, %arg1: tensor<77x1100xf32>) -> tensor<77x1100xf32> {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<77x1100xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<77x1100xf32>) outs(%0 : tensor<77x1100xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.negf %in : f32
      %5 = math.exp %4 : f32
      %6 = arith.addf %5, %cst : f32
      %7 = arith.divf %cst, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<77x1100xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %1 : tensor<77x1100xf32>, tensor<77x1100xf32>) outs(%0 : tensor<77x1100xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %4 = arith.mulf %in, %in_0 : f32
      linalg.yield %4 : f32
    } -> tensor<77x1100xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg0 : tensor<77x1100xf32>, tensor<77x1100xf32>) outs(%0 : tensor<77x1100xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %4 = arith.mulf %in, %in_0 : f32
      linalg.yield %4 : f32
    } -> tensor<77x1100xf32>
    return %3 : tensor<77x1100xf32>
  }
}

