// A padded 3x3 convolution as torch-mlir writes it (tensor.pad then the
// named op): the padding is read through the input's source in the
// convolution's generic; each thread computes 8 filters x 2 pixels.
func.func @conv_box_padded(%x: tensor<8x3x128x128xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<8x32x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32 } : tensor<8x3x128x128xf32> to tensor<8x3x130x130xf32>
  %e = tensor.empty() : tensor<8x32x128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x128x128xf32>) -> tensor<8x32x128x128xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%p, %w : tensor<8x3x130x130xf32>, tensor<32x3x3x3xf32>) outs(%f : tensor<8x32x128x128xf32>) -> tensor<8x32x128x128xf32>
  return %c : tensor<8x32x128x128xf32>
}
