#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, 0, c)>
func.func @i32_keepdim_sum(%x: tensor<5x1001x37xi32>) -> tensor<5x1x37xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<5x1001x37xi32>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<5x1x37xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<5x1x37xi32>) -> tensor<5x1x37xi32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<5x1001x37xi32>) outs(%f : tensor<5x1x37xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<5x1x37xi32>
  return %r : tensor<5x1x37xi32>
}
