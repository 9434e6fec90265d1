// Row log-softmax over 4096x4096 f32: x - max - log(sum(exp(x - max))).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @log_softmax(%x: tensor<4096x4096xf32>, %mx: tensor<4096xf32>, %sm: tensor<4096xf32>,
                       %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = linalg.fill ins(%ninf : f32) outs(%mx : tensor<4096xf32>) -> tensor<4096xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x4096xf32>) outs(%m0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%sm : tensor<4096xf32>) -> tensor<4096xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %mm: f32, %acc: f32):
    %d = arith.subf %a, %mm : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<4096x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) outs(%y : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %l = math.log %ss : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
