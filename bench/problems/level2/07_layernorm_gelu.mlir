// LayerNorm + GELU (QiMeng's level 2; no KernelBench v0.1 problem): y =
// gelu(layer_norm(x) * w + b) over the last dimension, 4096 rows of 1024 f32,
// eps 1e-5, biased variance, exact (erf) GELU; w and b are 1024 each.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm_gelu(%x: tensor<4096x1024xf32>, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %y = tensor.empty() : tensor<4096x1024xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106781 : f32
  %count = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %se = tensor.empty() : tensor<4096xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %qe = tensor.empty() : tensor<4096xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%qe : tensor<4096xf32>) -> tensor<4096xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%q0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %count : f32
    %d = arith.subf %a, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %w, %b : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<4096xf32>,
                                  tensor<1024xf32>, tensor<1024xf32>)
      outs(%y : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %wt: f32, %bi: f32, %o: f32):
    %mu = arith.divf %s, %count : f32
    %var = arith.divf %q, %count : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %mu : f32
    %nrm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nrm, %wt : f32
    %t = arith.addf %sc, %bi : f32
    %u = arith.mulf %t, %rsqrt2 : f32
    %er = math.erf %u : f32
    %p = arith.addf %er, %one : f32
    %v = arith.mulf %t, %p : f32
    %r = arith.mulf %v, %half : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
