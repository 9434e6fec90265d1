func.func @long_sums_too_few_filters(%x: tensor<2x32x10x10xf32>, %w: tensor<23x32x3x3xf32>, %out: tensor<2x23x8x8xf32>) -> tensor<2x23x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x32x10x10xf32>, tensor<23x32x3x3xf32>) outs(%out : tensor<2x23x8x8xf32>) -> tensor<2x23x8x8xf32>
  return %r : tensor<2x23x8x8xf32>
}
