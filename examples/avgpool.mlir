// 3x3 average pooling, stride 1, NHWC: 16x66x66x64 -> 16x64x64x64 f32
// (sum pooling, then a division by the window size).
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @avgpool(%x: tensor<16x66x66x64xf32>, %y: tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant 9.0 : f32
  %win = tensor.empty() : tensor<3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %win : tensor<16x66x66x64xf32>, tensor<3x3xf32>)
      outs(%acc : tensor<16x64x64x64xf32>) -> tensor<16x64x64x64xf32>
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%s : tensor<16x64x64x64xf32>) {
  ^bb0(%a: f32):
    %r = arith.divf %a, %nine : f32
    linalg.yield %r : f32
  } -> tensor<16x64x64x64xf32>
  return %0 : tensor<16x64x64x64xf32>
}
