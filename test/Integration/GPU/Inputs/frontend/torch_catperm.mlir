// torch.export of a small model (catperm), imported by torch-mlir (python -m qimeng.torch export), locations dropped.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @forward(%arg0: tensor<3x40x50xf32>, %arg1: tensor<3x24x50xf32>) -> tensor<3x50x64xf32> {
    %cst = arith.constant 2.000000e+00 : f32
    %concat = tensor.concat dim(1) %arg0, %arg1 : (tensor<3x40x50xf32>, tensor<3x24x50xf32>) -> tensor<3x64x50xf32>
    %0 = tensor.empty() : tensor<3x50x64xf32>
    %transposed = linalg.transpose ins(%concat : tensor<3x64x50xf32>) outs(%0 : tensor<3x50x64xf32>) permutation = [0, 2, 1] 
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<3x50x64xf32>) outs(%0 : tensor<3x50x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.mulf %in, %cst : f32
      linalg.yield %2 : f32
    } -> tensor<3x50x64xf32>
    return %1 : tensor<3x50x64xf32>
  }
}

