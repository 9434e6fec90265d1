// RUN: qimeng-opt %s --qimeng-prepare -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: for f in stride2_3d padding0 dilated shifted stride1 nhwc int32 im2col nonzero_fill; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// RUN: qimeng-opt %s --llm-plan --lower-to-nvvm -o %t.gpu.mlir
// RUN: grep -q gpu.binary %t.gpu.mlir
// Transposed convolutions as torch-mlir writes them (a stride-1 convolution
// over the input inserted every s into zeros) become one convolution per
// output phase over the input itself, with the phase's taps of the filter;
// one gather adds each output's phase to the destination. The host runs of
// the rewritten kernels match the convolutions over the zero-spread input.
// HOST: matches the reference in 2 trial(s)

// ConvTranspose3d(stride 2, padding 1): 8 phases of 1, 2, 4 or 8 taps.
// CHECK-LABEL: func.func @stride2_3d
// CHECK-NOT:     tensor.insert_slice
// CHECK-COUNT-8: linalg.conv_3d_ncdhw_fcdhw {{.*}} ins(%arg0, %{{.*}} : tensor<2x4x5x6x7xf32>, tensor<3x4x{{[12]}}x{{[12]}}x{{[12]}}xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x9x11x13xf32>)
// CHECK-COUNT-3:   arith.remui
// CHECK-COUNT-8:   tensor.extract
// CHECK:           arith.addf
func.func @stride2_3d(%x: tensor<2x4x5x6x7xf32>, %w: tensor<3x4x3x3x3xf32>, %bias: tensor<3xf32>) -> tensor<2x3x9x11x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x11x13x15xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x11x13x15xf32>) -> tensor<2x4x11x13x15xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 1, 1, 1] [2, 4, 5, 6, 7] [1, 1, 2, 2, 2] : tensor<2x4x5x6x7xf32> into tensor<2x4x11x13x15xf32>
  %o = tensor.empty() : tensor<2x3x9x11x13xf32>
  %b = linalg.broadcast ins(%bias : tensor<3xf32>) outs(%o : tensor<2x3x9x11x13xf32>) dimensions = [0, 2, 3, 4]
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%s, %w : tensor<2x4x11x13x15xf32>, tensor<3x4x3x3x3xf32>) outs(%b : tensor<2x3x9x11x13xf32>) -> tensor<2x3x9x11x13xf32>
  return %r : tensor<2x3x9x11x13xf32>
}

// Stride 2, padding 0: the even outputs' first tap reads one before the
// input (zero padding); phases of 7x8, 7x7, 6x8 and 6x7 outputs.
// CHECK-LABEL: func.func @padding0
// CHECK-DAG:     linalg.fill {{.*}} -> tensor<2x4x7x8xf32>
// CHECK-DAG:     linalg.fill {{.*}} -> tensor<2x4x7x7xf32>
// CHECK-DAG:     linalg.fill {{.*}} -> tensor<2x4x6x8xf32>
// CHECK-DAG:     linalg.fill {{.*}} -> tensor<2x4x6x7xf32>
// CHECK-COUNT-2: arith.remui
func.func @padding0(%x: tensor<2x5x6x7xf32>, %w: tensor<4x5x3x3xf32>) -> tensor<2x4x13x15xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x15x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x15x17xf32>) -> tensor<2x5x15x17xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 2, 2] [2, 5, 6, 7] [1, 1, 2, 2] : tensor<2x5x6x7xf32> into tensor<2x5x15x17xf32>
  %o = tensor.empty() : tensor<2x4x13x15xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x4x13x15xf32>) -> tensor<2x4x13x15xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w : tensor<2x5x15x17xf32>, tensor<4x5x3x3xf32>) outs(%f : tensor<2x4x13x15xf32>) -> tensor<2x4x13x15xf32>
  return %r : tensor<2x4x13x15xf32>
}

// Dilation 2: along H (stride 3, coprime) each of the 3 phases takes one
// tap; along W (stride 2) the odd outputs read no input (they keep the
// destination's values) and the even ones take all 3 taps, undilated. The
// destination is an argument (a splat of zeros is the spread input).
// CHECK-LABEL: func.func @dilated
// CHECK-COUNT-3: linalg.fill {{.*}} -> tensor<1x2x5x6xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {{.*}} outs(%arg2 : tensor<1x2x15x12xf32>)
// CHECK:           arith.remui %{{.*}}, %c3
// CHECK:           arith.remui %{{.*}}, %c2
func.func @dilated(%x: tensor<1x3x5x4xf32>, %w: tensor<2x3x3x3xf32>, %out: tensor<1x2x15x12xf32>) -> tensor<1x2x15x12xf32> {
  %z = arith.constant dense<0.0> : tensor<1x3x19x16xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 3, 4] [1, 3, 5, 4] [1, 1, 3, 2] : tensor<1x3x5x4xf32> into tensor<1x3x19x16xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w : tensor<1x3x19x16xf32>, tensor<2x3x3x3xf32>) outs(%out : tensor<1x2x15x12xf32>) -> tensor<1x2x15x12xf32>
  return %r : tensor<1x2x15x12xf32>
}

// Inserted at offset 0 (padding K - 1): the odd outputs start one input
// in, read through a gather of the input shifted by one.
// CHECK-LABEL: func.func @shifted
// CHECK:         linalg.fill {{.*}} -> tensor<3x5x7xf32>
// CHECK:         linalg.fill {{.*}} -> tensor<3x5x6xf32>
// CHECK:         arith.remui
func.func @shifted(%x: tensor<3x2x8xf32>, %w: tensor<5x2x3xf32>) -> tensor<3x5x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2x15xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x15xf32>) -> tensor<3x2x15xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 0] [3, 2, 8] [1, 1, 2] : tensor<3x2x8xf32> into tensor<3x2x15xf32>
  %o = tensor.empty() : tensor<3x5x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<3x5x13xf32>) -> tensor<3x5x13xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%s, %w : tensor<3x2x15xf32>, tensor<5x2x3xf32>) outs(%f : tensor<3x5x13xf32>) -> tensor<3x5x13xf32>
  return %r : tensor<3x5x13xf32>
}

// Stride 1 (ConvTranspose1d(dilation 3)): the insert is a padding; left as
// it is.
// CHECK-LABEL: func.func @stride1
// CHECK-NOT:     arith.remui
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x3x5xf32>) outs(%{{.*}} : tensor<2x4x32xf32>)
// CHECK-NOT:     arith.remui
func.func @stride1(%x: tensor<2x3x20xf32>, %w: tensor<4x3x5xf32>) -> tensor<2x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x44xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x44xf32>) -> tensor<2x3x44xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 12] [2, 3, 20] [1, 1, 1] : tensor<2x3x20xf32> into tensor<2x3x44xf32>
  %o = tensor.empty() : tensor<2x4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<3> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%s, %w : tensor<2x3x44xf32>, tensor<4x3x5xf32>) outs(%f : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  return %r : tensor<2x4x32xf32>
}

// Channels last (IREE's and StableHLO's form), a 4x4 window: 2x2 taps in
// each of the 4 phases.
// CHECK-LABEL: func.func @nhwc
// CHECK-COUNT-4: ins(%{{.*}} : tensor<2x2x3x7xf32>)
func.func @nhwc(%x: tensor<2x6x5x3xf32>, %w: tensor<4x4x3x7xf32>) -> tensor<2x13x11x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x14x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x14x3xf32>) -> tensor<2x16x14x3xf32>
  %s = tensor.insert_slice %x into %z[0, 2, 2, 0] [2, 6, 5, 3] [1, 2, 2, 1] : tensor<2x6x5x3xf32> into tensor<2x16x14x3xf32>
  %o = tensor.empty() : tensor<2x13x11x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x13x11x7xf32>) -> tensor<2x13x11x7xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w : tensor<2x16x14x3xf32>, tensor<4x4x3x7xf32>) outs(%f : tensor<2x13x11x7xf32>) -> tensor<2x13x11x7xf32>
  return %r : tensor<2x13x11x7xf32>
}

// Integers: the phases are added with arith.addi.
// CHECK-LABEL: func.func @int32
// CHECK:         arith.remui
// CHECK:         arith.addi
func.func @int32(%x: tensor<2x3x9xi32>, %w: tensor<4x3x4xi32>, %out: tensor<2x4x17xi32>) -> tensor<2x4x17xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x3x20xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<2x3x20xi32>) -> tensor<2x3x20xi32>
  %s = tensor.insert_slice %x into %z[0, 0, 2] [2, 3, 9] [1, 1, 2] : tensor<2x3x9xi32> into tensor<2x3x20xi32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%s, %w : tensor<2x3x20xi32>, tensor<4x3x4xi32>) outs(%out : tensor<2x4x17xi32>) -> tensor<2x4x17xi32>
  return %r : tensor<2x4x17xi32>
}

// 32 channels and 32 filters: each phase (32 x 1, 2 or 4 taps) goes on
// to im2col, over columns a quarter the size of the spread input's.
// CHECK-LABEL: func.func @im2col
// CHECK-COUNT-4: linalg.batch_matmul
// CHECK-NOT:     linalg.conv
func.func @im2col(%x: tensor<1x32x5x6xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x9x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x11x13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x11x13xf32>) -> tensor<1x32x11x13xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 1, 1] [1, 32, 5, 6] [1, 1, 2, 2] : tensor<1x32x5x6xf32> into tensor<1x32x11x13xf32>
  %o = tensor.empty() : tensor<1x32x9x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<1x32x9x11xf32>) -> tensor<1x32x9x11xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w : tensor<1x32x11x13xf32>, tensor<32x32x3x3xf32>) outs(%f : tensor<1x32x9x11xf32>) -> tensor<1x32x9x11xf32>
  return %r : tensor<1x32x9x11xf32>
}

// Spread into ones, not zeros: left as it is (one window over all 3 taps,
// no phases).
// CHECK-LABEL: func.func @nonzero_fill
// CHECK-NOT:     linalg.fill {{.*}} -> tensor<1x3x{{[34]}}xf32>
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<3x2x3xf32>) outs(%{{.*}} : tensor<1x3x7xf32>)
// CHECK:         return
func.func @nonzero_fill(%x: tensor<1x2x4xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x3x7xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x9xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<1x2x9xf32>) -> tensor<1x2x9xf32>
  %s = tensor.insert_slice %x into %z[0, 0, 1] [1, 2, 4] [1, 1, 2] : tensor<1x2x4xf32> into tensor<1x2x9xf32>
  %o = tensor.empty() : tensor<1x3x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<1x3x7xf32>) -> tensor<1x3x7xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%s, %w : tensor<1x2x9xf32>, tensor<3x2x3xf32>) outs(%f : tensor<1x3x7xf32>) -> tensor<1x3x7xf32>
  return %r : tensor<1x3x7xf32>
}
