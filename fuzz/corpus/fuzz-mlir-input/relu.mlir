// ReLU over 4096x4096 f32 (KernelBench level 1 #19, scaled).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x4096xf32>) outs(%y : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
