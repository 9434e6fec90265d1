func.func @kernel(%x0: tensor<3x8x112x112xf32>, %x1: tensor<31x8x5x5xf32>, %x2: tensor<31xf32>) -> (tensor<3x31x54x54xf32>) {
  %cst = arith.constant 0.0 : f32
  %w = tensor.pad %x1 low[0, 0, 0, 0] high[1, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<31x8x5x5xf32> to tensor<32x8x5x5xf32>
  %bias = tensor.pad %x2 low[0] high[1] {
  ^bb0(%a: index):
    tensor.yield %cst : f32
  } : tensor<31xf32> to tensor<32xf32>
  %empty1 = tensor.empty() : tensor<3x32x54x54xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<32xf32>)
      outs(%empty1 : tensor<3x32x54x54xf32>) {
    ^bb0(%a0: f32, %a1: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x32x54x54xf32>
  %r3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x0, %w : tensor<3x8x112x112xf32>, tensor<32x8x5x5xf32>) outs(%r2 : tensor<3x32x54x54xf32>) -> tensor<3x32x54x54xf32>
  %s = tensor.extract_slice %r3[0, 0, 0, 0] [3, 31, 54, 54] [1, 1, 1, 1] : tensor<3x32x54x54xf32> to tensor<3x31x54x54xf32>
  return %s : tensor<3x31x54x54xf32>
}
