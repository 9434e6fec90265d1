// Several results: two fresh tensors (one computed from the other) and the
// input itself, returned as it came (the caller gets its own buffer back).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_square(%x: tensor<257x129xf32>)
    -> (tensor<257x129xf32>, tensor<257x129xf32>, tensor<257x129xf32>) {
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<257x129xf32>
  %e1 = tensor.empty() : tensor<257x129xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<257x129xf32>) outs(%e0 : tensor<257x129xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<257x129xf32>
  %squared = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scaled : tensor<257x129xf32>) outs(%e1 : tensor<257x129xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<257x129xf32>
  return %scaled, %squared, %x : tensor<257x129xf32>, tensor<257x129xf32>, tensor<257x129xf32>
}
