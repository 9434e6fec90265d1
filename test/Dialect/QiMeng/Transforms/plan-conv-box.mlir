// Boxes of filters and pixels per thread for convolutions in the forms
// frontends write (getConvolutionBox), after qimeng-prepare.
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare --qimeng-plan | FileCheck %s

// A padded convolution (torch-mlir's padding = 1): qimeng-prepare reads the
// input through its source in the convolution's generic (tensor.extract with
// clamped indices), a reduction to the classifier. The filters are the loop
// no extract index depends on (the weights read it), the pixels the loop an
// index shares with a tap: 8 filters x 2 pixels a thread, the fill alike.
// CHECK-LABEL: qimeng.plan @padded provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [1, 8, 4, 128] to block
// CHECK-NEXT:    qimeng.tile "fill0" [0, 8, 1, 2] to thread
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 8, 4, 128, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 8, 1, 2, 0, 0, 0] to thread
// CHECK-NEXT:    qimeng.fuse "reduction0" producer "fill0"
// CHECK-NEXT:  }
func.func @padded(%x: tensor<8x3x128x128xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<8x32x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32 } : tensor<8x3x128x128xf32> to tensor<8x3x130x130xf32>
  %e = tensor.empty() : tensor<8x32x128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x128x128xf32>) -> tensor<8x32x128x128xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%p, %w : tensor<8x3x130x130xf32>, tensor<32x3x3x3xf32>) outs(%f : tensor<8x32x128x128xf32>) -> tensor<8x32x128x128xf32>
  return %c : tensor<8x32x128x128xf32>
}

// -----

// A depthwise convolution has no filter loop: a box of 4 pixels along W.
// CHECK-LABEL: qimeng.plan @depthwise provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "conv0" [1, 1, 8, 128, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 1, 1, 4, 0, 0] to thread
func.func @depthwise(%x: tensor<8x16x130x130xf32>, %w: tensor<16x3x3xf32>) -> tensor<8x16x128x128xf32> {
  %e = tensor.empty() : tensor<8x16x128x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<8x16x130x130xf32>, tensor<16x3x3xf32>) outs(%f : tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32>
  return %r : tensor<8x16x128x128xf32>
}

// -----

// Too few outputs to fill the GPU with boxes (3 x 16 x 5 x 5), a dynamic
// batch (counted as one image: 16 x 30 x 30 outputs), pooling (no weights):
// one output per thread.
// CHECK-LABEL: qimeng.plan @small
// CHECK:         qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
func.func @small(%x: tensor<3x1x14x14xf32>, %w: tensor<16x1x5x5xf32>) -> tensor<3x16x5x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x16x5x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x16x5x5xf32>) -> tensor<3x16x5x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
     ins(%x, %w : tensor<3x1x14x14xf32>, tensor<16x1x5x5xf32>) outs(%f : tensor<3x16x5x5xf32>) -> tensor<3x16x5x5xf32>
  return %r : tensor<3x16x5x5xf32>
}

// -----

// CHECK-LABEL: qimeng.plan @dynamic_batch
// CHECK:         qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
func.func @dynamic_batch(%x: tensor<?x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<?x16x30x30xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x32x32xf32>
  %e = tensor.empty(%n) : tensor<?x16x30x30xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x16x30x30xf32>) -> tensor<?x16x30x30xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) outs(%f : tensor<?x16x30x30xf32>) -> tensor<?x16x30x30xf32>
  return %r : tensor<?x16x30x30xf32>
}

// -----

// CHECK-LABEL: qimeng.plan @pool
// CHECK:         to thread
// CHECK-NOT:     qimeng.tile "{{.+}}" [0, 1, 1, {{[2-9]}}
func.func @pool(%x: tensor<16x64x258x258xf32>) -> tensor<16x64x128x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16x64x128x128xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16x64x128x128xf32>) -> tensor<16x64x128x128xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
     ins(%x, %k : tensor<16x64x258x258xf32>, tensor<3x3xf32>) outs(%f : tensor<16x64x128x128xf32>) -> tensor<16x64x128x128xf32>
  return %r : tensor<16x64x128x128xf32>
}

// -----

// A padded max pool is a generic with gathers too, but reads no weights:
// one output per thread.
// CHECK-LABEL: qimeng.plan @padded_pool
// CHECK:         qimeng.tile "reduction0" [0, 1, 1, 1, 0, 0] to thread
func.func @padded_pool(%x: tensor<16x64x256x256xf32>) -> tensor<16x64x128x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32 } : tensor<16x64x256x256xf32> to tensor<16x64x258x258xf32>
  %e = tensor.empty() : tensor<16x64x128x128xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16x64x128x128xf32>) -> tensor<16x64x128x128xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
     ins(%p, %k : tensor<16x64x258x258xf32>, tensor<3x3xf32>) outs(%f : tensor<16x64x128x128xf32>) -> tensor<16x64x128x128xf32>
  return %r : tensor<16x64x128x128xf32>
}
