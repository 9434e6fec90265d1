// A convolution as torch-mlir writes it for a dynamic batch: NCHW,
// padding=1 through tensor.pad, bias broadcast into the result, ReLU, the
// result built from tensor.empty and returned. ?x64x28x28 * 96x64x3x3 ->
// ?x96x28x28 f32. Run with --shape=0=Nx64x28x28.
func.func @conv2d_dynamic_batch(%x: tensor<?x64x28x28xf32>, %w: tensor<96x64x3x3xf32>,
                                %bias: tensor<96xf32>) -> tensor<?x96x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64x28x28xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x64x28x28xf32> to tensor<?x64x30x30xf32>
  %empty = tensor.empty(%n) : tensor<?x96x28x28xf32>
  %init = linalg.broadcast ins(%bias : tensor<96xf32>) outs(%empty : tensor<?x96x28x28xf32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<?x64x30x30xf32>, tensor<96x64x3x3xf32>)
      outs(%init : tensor<?x96x28x28xf32>) -> tensor<?x96x28x28xf32>
  %out = tensor.empty(%n) : tensor<?x96x28x28xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<?x96x28x28xf32>) outs(%out : tensor<?x96x28x28xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x96x28x28xf32>
  return %relu : tensor<?x96x28x28xf32>
}
