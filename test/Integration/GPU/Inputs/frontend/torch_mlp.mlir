// torch.export of a small model (mlp), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%arg0: tensor<256x512xf32>, %arg1: tensor<256xf32>, %arg2: tensor<100x512xf32>) -> tensor<100x256xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %cst_2 = arith.constant 1.41421354 : f32
    %0 = tensor.empty() : tensor<512x256xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<256x512xf32>) outs(%0 : tensor<512x256xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<100x256xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<100x256xf32>) -> tensor<100x256xf32>
    %3 = linalg.matmul ins(%arg2, %transposed : tensor<100x512xf32>, tensor<512x256xf32>) outs(%2 : tensor<100x256xf32>) -> tensor<100x256xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg1 : tensor<100x256xf32>, tensor<256xf32>) outs(%1 : tensor<100x256xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %6 = arith.addf %in, %in_3 : f32
      linalg.yield %6 : f32
    } -> tensor<100x256xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<100x256xf32>) outs(%1 : tensor<100x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %6 = arith.divf %in, %cst_2 : f32
      %7 = math.erf %6 : f32
      %8 = arith.addf %7, %cst_0 : f32
      %9 = arith.mulf %8, %cst_1 : f32
      %10 = arith.mulf %in, %9 : f32
      linalg.yield %10 : f32
    } -> tensor<100x256xf32>
    return %5 : tensor<100x256xf32>
  }
}

