// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// Convolutions and pooling in qimeng-prepare (lib/Transforms/Linalg/Windows.cpp).

// A depthwise 3x3 with stride 2 over a zero-padded input (how torch-mlir
// writes padding=1): the named op is generalized and reads the unpadded
// input at clamped indices, zero outside it; no padded copy is written.
// CHECK-LABEL: func.func @depthwise_padded
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x4x9x7xf32>
// CHECK-NOT:   tensor.pad
// CHECK:       %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:    outs(%{{.+}} : tensor<2x4x5x4xf32>)
// CHECK:         %[[V:.+]] = tensor.extract %[[X]]
// CHECK:         arith.select %{{.+}}, %[[V]], %{{.+}} : f32
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[R]]
func.func @depthwise_padded(%x: tensor<2x4x9x7xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x4x9x7xf32> to tensor<2x4x11x9xf32>
  %e = tensor.empty() : tensor<2x4x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<2x4x11x9xf32>, tensor<4x3x3xf32>) outs(%f : tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32>
  return %r : tensor<2x4x5x4xf32>
}

// -----

// Max pooling over a -inf padded input: the window reads the input itself.
// CHECK-LABEL: func.func @maxpool_padded
// CHECK-NOT:   tensor.pad
// CHECK:       linalg.generic
// CHECK:         tensor.extract
// CHECK:         arith.select
// CHECK:         arith.maximumf
// CHECK-NOT:   linalg.generic
func.func @maxpool_padded(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %win : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// -----

// The padded tensor has another user (returned): it is written once, and the
// convolution (its loops in the output's order) reads it as it was.
// CHECK-LABEL: func.func @padded_shared
// CHECK:       %[[P:.+]] = linalg.generic
// CHECK:       linalg.generic {{.*}} ins(%[[P]], %{{.+}} : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>)
func.func @padded_shared(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r, %p : tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>
}

// -----

// A 3x3 convolution over 8 channels (72 reads an output): the padded copy
// is written once and read as it was.
// CHECK-LABEL: func.func @dense_padded
// CHECK:       %[[P:.+]] = linalg.generic
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.+}} : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>)
func.func @dense_padded(%x: tensor<1x8x4x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// A depthwise convolution without padding: its loops (n, oh, ow, c, kh, kw)
// interchanged into its output's order (n, c, oh, ow), reductions last.
// CHECK:       affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-NEXT:  affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
// CHECK-NEXT:  affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise_order
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
func.func @depthwise_order(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// A gather that adds into its output (a padded matmul's corner added to C
// looks like this) is not a padding: fused, the output it updates would
// become a second output of the window, updated once per read. It stays a
// kernel of its own.
// CHECK-LABEL: func.func @updating_gather
// CHECK:       %[[G:.+]] = linalg.generic
// CHECK:         tensor.extract
// CHECK:         arith.addf
// CHECK:       linalg.pooling_nwc_max {{.*}} ins(%[[G]], %{{.+}} : tensor<1x10x4xf32>, tensor<3xf32>)
func.func @updating_gather(%x: tensor<1x10x4xf32>, %y: tensor<1x10x4xf32>) -> tensor<1x8x4xf32> {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%x : tensor<1x10x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %e = tensor.extract %y[%i, %j, %k] : tensor<1x10x4xf32>
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  } -> tensor<1x10x4xf32>
  %w = tensor.empty() : tensor<3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<1x8x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
  %r = linalg.pooling_nwc_max {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%g, %w : tensor<1x10x4xf32>, tensor<3xf32>) outs(%f : tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
  return %r : tensor<1x8x4xf32>
}
