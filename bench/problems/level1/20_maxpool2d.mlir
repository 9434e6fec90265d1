// KernelBench level1/42_Max_Pooling_2D.py (v0.1 shapes): nn.MaxPool2d with
// kernel 2, stride 2, padding 1, dilation 3 on 16x32x128x128 f32 (NCHW)
// -> 16x32x64x64. The padding is a tensor.pad with -inf (130x130).
func.func @maxpool2d(%x: tensor<16x32x128x128xf32>, %y: tensor<16x32x64x64xf32>) -> tensor<16x32x64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %ninf : f32
  } : tensor<16x32x128x128xf32> to tensor<16x32x130x130xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%y : tensor<16x32x64x64xf32>) -> tensor<16x32x64x64xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %win : tensor<16x32x130x130xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<16x32x64x64xf32>) -> tensor<16x32x64x64xf32>
  return %0 : tensor<16x32x64x64xf32>
}
