// x + y over 3000x1024 f32 into a fresh result, as torch-mlir writes it: the
// result is built from tensor.empty and returned (device memory the caller
// owns), not passed in.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add(%x: tensor<3000x1024xf32>, %y: tensor<3000x1024xf32>) -> tensor<3000x1024xf32> {
  %empty = tensor.empty() : tensor<3000x1024xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<3000x1024xf32>, tensor<3000x1024xf32>) outs(%empty : tensor<3000x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3000x1024xf32>
  return %0 : tensor<3000x1024xf32>
}
