// A dynamic batch, as frontends write it: the result's size is read from the
// input (tensor.dim) and the result is returned; y = gelu(x + b) over ?x1024
// with b broadcast along the batch.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_gelu(%x: tensor<?x1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %empty = tensor.empty(%n) : tensor<?x1024xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<?x1024xf32>, tensor<1024xf32>) outs(%empty : tensor<?x1024xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %v = arith.addf %a, %bias : f32
    %s = arith.mulf %v, %rsqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %h = arith.mulf %v, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
