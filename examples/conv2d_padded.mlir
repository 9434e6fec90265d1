// 3x3 convolution with "same" padding through tensor.pad (what torch-mlir
// emits for padding=1): 8x64x64x64 NHWC * 3x3x64x64 -> 8x64x64x64 f32.
func.func @conv2d_padded(%x: tensor<8x64x64x64xf32>, %w: tensor<3x3x64x64xf32>,
                         %y: tensor<8x64x64x64xf32>) -> tensor<8x64x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w_: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<8x64x64x64xf32> to tensor<8x66x66x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<8x64x64x64xf32>) -> tensor<8x64x64x64xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<8x66x66x64xf32>, tensor<3x3x64x64xf32>)
      outs(%acc : tensor<8x64x64x64xf32>) -> tensor<8x64x64x64xf32>
  return %0 : tensor<8x64x64x64xf32>
}
