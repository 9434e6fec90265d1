// LayerNorm over the last dimension with a weight and a bias, as torch-mlir
// writes nn.LayerNorm(768): a dynamic number of rows, keepdim reductions into
// (rows, 1) tensors started by fills, the result built and returned.
// Run with a row count, e.g. qimeng-run --verify --shape=0=4096x768.
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm_keepdim(%x: tensor<?x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x768xf32>
  %e1 = tensor.empty(%rows) : tensor<?x1xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x768xf32>) outs(%s0 : tensor<?x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<?x1xf32>) outs(%e1 : tensor<?x1xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<?x1xf32>
  %e2 = tensor.empty(%rows) : tensor<?x768xf32>
  %centered = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<?x768xf32>, tensor<?x1xf32>) outs(%e2 : tensor<?x768xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<?x768xf32>
  %v0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %sq = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<?x768xf32>) outs(%v0 : tensor<?x1xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sq, %w, %b : tensor<?x768xf32>, tensor<?x1xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e2 : tensor<?x768xf32>) {
  ^bb0(%d: f32, %q: f32, %ww: f32, %bb: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %t = arith.mulf %d, %rs : f32
    %t2 = arith.mulf %t, %ww : f32
    %t3 = arith.addf %t2, %bb : f32
    linalg.yield %t3 : f32
  } -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}
