// RUN: qimeng-opt %s --split-input-file --qimeng-split-reductions | FileCheck %s

// 8 filters over 96 channels of 16 32x32 images on sm_90 (132 SMs): 131072
// outputs, in boxes of 8 filters by 4 pixels 4096 threads, each output a
// sum of 864 products. The channels are split into 8 parts of 12 (108
// products each): a convolution with an outer parallel loop over the parts
// writes 8 partial outputs from zero, and a reduction over the parts (the
// outer loop) adds them onto the original output's zero fill.
// CHECK-DAG:   #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d0, d5, d3 + d6, d4 + d7)>
// CHECK-DAG:   #[[$WT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d0, d5, d6, d7)>
// CHECK-DAG:   #[[$PT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @few_filters
// CHECK-DAG:   %[[INIT:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x8x32x32xf32>)
// CHECK-DAG:   %[[X:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [16, 8, 12, 34, 34]
// CHECK-DAG:   %[[W:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [8, 8, 12, 3, 3]
// CHECK-DAG:   %[[P:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x16x8x32x32xf32>)
// CHECK:       %[[PART:.+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$WT]], #[[$PT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[P]] : tensor<8x16x8x32x32xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[PART]] : tensor<8x16x8x32x32xf32>) outs(%[[INIT]] : tensor<16x8x32x32xf32>)
// CHECK:         arith.addf
// CHECK:       return %[[SUM]]
func.func @few_filters(%x: tensor<16x96x34x34xf32>, %w: tensor<8x96x3x3xf32>) -> tensor<16x8x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8x32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8x32x32xf32>) -> tensor<16x8x32x32xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<16x96x34x34xf32>, tensor<8x96x3x3xf32>) outs(%init : tensor<16x8x32x32xf32>) -> tensor<16x8x32x32xf32>
  return %0 : tensor<16x8x32x32xf32>
}

// -----

// Channels last, a bias as the initial value: 4 x 16 x 16 pixels of 16
// filters over 256 channels. The channels (the innermost index of the input
// and the third of the weights) are split into 32 parts of 8 (72 products
// each, at least 64); the parts are added onto the bias.
// CHECK-DAG:   #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2 + d5, d3 + d6, d0, d7)>
// CHECK-DAG:   #[[$WT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d0, d7, d4)>
// CHECK-LABEL: func.func @nhwc_bias
// CHECK-SAME:    %{{.*}}: tensor<4x18x18x256xf32>, %{{.*}}: tensor<3x3x256x16xf32>, %[[BIAS:.+]]: tensor<4x16x16x16xf32>
// CHECK-DAG:   tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [4, 18, 18, 32, 8]
// CHECK-DAG:   tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4]] output_shape [3, 3, 32, 8, 16]
// CHECK:       %[[PART:.+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$WT]], #{{.+}}], {{.*}} outs(%{{.*}} : tensor<32x4x16x16x16xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[PART]] : tensor<32x4x16x16x16xf32>) outs(%[[BIAS]] : tensor<4x16x16x16xf32>)
func.func @nhwc_bias(%x: tensor<4x18x18x256xf32>, %w: tensor<3x3x256x16xf32>, %bias: tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<4x18x18x256xf32>, tensor<3x3x256x16xf32>) outs(%bias : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  return %0 : tensor<4x16x16x16xf32>
}

// -----

// Enough outputs: 16 x 64 x 254 x 254 in boxes of 8 x 4 fill the GPU.
// CHECK-LABEL: func.func @many_outputs
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @many_outputs(%x: tensor<16x3x256x256xf32>, %w: tensor<64x3x3x3xf32>, %init: tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<16x3x256x256xf32>, tensor<64x3x3x3xf32>) outs(%init : tensor<16x64x254x254xf32>) -> tensor<16x64x254x254xf32>
  return %0 : tensor<16x64x254x254xf32>
}

// -----

// Few outputs but short sums (16 channels x 3 x 3 = 144 products), and 97
// channels (a prime: no parts divide it): neither is split.
// CHECK-LABEL: func.func @short_sum
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @prime_channels
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @short_sum(%x: tensor<2x16x34x34xf32>, %w: tensor<8x16x3x3xf32>, %init: tensor<2x8x32x32xf32>) -> tensor<2x8x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x16x34x34xf32>, tensor<8x16x3x3xf32>) outs(%init : tensor<2x8x32x32xf32>) -> tensor<2x8x32x32xf32>
  return %0 : tensor<2x8x32x32xf32>
}
func.func @prime_channels(%x: tensor<2x97x34x34xf32>, %w: tensor<8x97x3x3xf32>, %init: tensor<2x8x32x32xf32>) -> tensor<2x8x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x97x34x34xf32>, tensor<8x97x3x3xf32>) outs(%init : tensor<2x8x32x32xf32>) -> tensor<2x8x32x32xf32>
  return %0 : tensor<2x8x32x32xf32>
}

// -----

// A dynamic batch (its outputs unknown), and a depthwise convolution (no
// channel loop: each channel is its own output): left alone.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.depthwise_conv_2d_nchw_chw
func.func @dynamic_batch(%x: tensor<?x96x34x34xf32>, %w: tensor<8x96x3x3xf32>, %init: tensor<?x8x32x32xf32>) -> tensor<?x8x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x96x34x34xf32>, tensor<8x96x3x3xf32>) outs(%init : tensor<?x8x32x32xf32>) -> tensor<?x8x32x32xf32>
  return %0 : tensor<?x8x32x32xf32>
}
func.func @depthwise(%x: tensor<1x64x130x130xf32>, %w: tensor<64x3x3xf32>, %init: tensor<1x64x128x128xf32>) -> tensor<1x64x128x128xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x130x130xf32>, tensor<64x3x3xf32>) outs(%init : tensor<1x64x128x128xf32>) -> tensor<1x64x128x128xf32>
  return %0 : tensor<1x64x128x128xf32>
}

// -----

// The same shapes as @few_filters in f16: a long f16 sum in another order
// differs from the sum in order by more than the verifier allows, so f16
// and bf16 convolutions are not split.
// CHECK-LABEL: func.func @f16_not_split
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @f16_not_split(%x: tensor<16x96x34x34xf16>, %w: tensor<8x96x3x3xf16>, %init: tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<16x96x34x34xf16>, tensor<8x96x3x3xf16>) outs(%init : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
  return %0 : tensor<16x8x32x32xf16>
}
