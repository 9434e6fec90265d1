// Correct: the same softmax written out (max, exp-sum, divide): another
// order of operations, accepted.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16384xf32>
  %r = tensor.empty() : tensor<16xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%r : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16384xf32>) outs(%m0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.maximumf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%r : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<16x16384xf32>, tensor<16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %x1 = math.exp %d : f32
    %v = arith.addf %x1, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<16x16384xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %x1 = math.exp %d : f32
    %v = arith.divf %x1, %s : f32
    linalg.yield %v : f32
  } -> tensor<16x16384xf32>
  return %0 : tensor<16x16384xf32>
}
