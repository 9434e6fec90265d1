// KernelBench level1/40_LayerNorm.py (v0.1 shapes): nn.LayerNorm over the
// last three dimensions (64x256x256) of a 16x64x256x256 f32 tensor, eps 1e-5,
// with the elementwise-affine weight and bias (64x256x256 each) as inputs:
// y = (x - mean) / sqrt(var + eps) * w + b, biased variance.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#n = affine_map<(n, c, h, w) -> (n)>
#chw = affine_map<(n, c, h, w) -> (c, h, w)>
func.func @layernorm(%x: tensor<16x64x256x256xf32>, %w: tensor<64x256x256xf32>,
                     %b: tensor<64x256x256xf32>)
    -> tensor<16x64x256x256xf32> {
  %y = tensor.empty() : tensor<16x64x256x256xf32>
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 4194304.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %se = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #n],
                         iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : tensor<16x64x256x256xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %qe = tensor.empty() : tensor<16xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%qe : tensor<16xf32>) -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #n, #n],
                        iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %sum : tensor<16x64x256x256xf32>, tensor<16xf32>) outs(%q0 : tensor<16xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %count : f32
    %d = arith.subf %a, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #n, #n, #chw, #chw, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %sq, %w, %b : tensor<16x64x256x256xf32>, tensor<16xf32>, tensor<16xf32>,
                                  tensor<64x256x256xf32>, tensor<64x256x256xf32>)
      outs(%y : tensor<16x64x256x256xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %wt: f32, %bi: f32, %o: f32):
    %mu = arith.divf %s, %count : f32
    %var = arith.divf %q, %count : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %mu : f32
    %nrm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nrm, %wt : f32
    %r = arith.addf %sc, %bi : f32
    linalg.yield %r : f32
  } -> tensor<16x64x256x256xf32>
  return %0 : tensor<16x64x256x256xf32>
}
