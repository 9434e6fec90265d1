// Argmax over the last dimension: 4096x4096 f32 -> 4096 i64 (first maximum).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: tensor<4096x4096xf32>, %vals: tensor<4096xf32>,
                  %idx: tensor<4096xi64>) -> tensor<4096xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %v0 = linalg.fill ins(%ninf : f32) outs(%vals : tensor<4096xf32>) -> tensor<4096xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%idx : tensor<4096xi64>) -> tensor<4096xi64>
  %0:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x4096xf32>) outs(%v0, %i0 : tensor<4096xf32>, tensor<4096xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ji, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<4096xf32>, tensor<4096xi64>)
  return %0#1 : tensor<4096xi64>
}
