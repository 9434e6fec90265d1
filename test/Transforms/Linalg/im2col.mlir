// RUN: qimeng-opt %s --qimeng-prepare -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: for f in padded whole strided_dilated conv1d conv3d few_reads few_filters \
// RUN:          long_sums_fewer_filters long_sums_too_few_filters \
// RUN:          nhwc_padded nhwc_whole nhwc_fhwc_strided nwc ndhwc; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// RUN: qimeng-opt %s --llm-plan --lower-to-nvvm -o %t.gpu.mlir
// RUN: grep -q gpu.binary %t.gpu.mlir
// Columns over the bound (here 50000 bytes) are gathered for a group of
// images at a time, each group into the last group's buffer.
// RUN: qimeng-opt %s --qimeng-prepare=max-column-bytes=50000 -o %t.groups.mlir
// RUN: FileCheck %s --check-prefix=GROUPS < %t.groups.mlir
// RUN: for f in padded whole strided_dilated conv1d conv3d few_reads few_filters \
// RUN:          nhwc_padded nhwc_whole nhwc_fhwc_strided nwc ndhwc; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.groups.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// Convolutions whose outputs each read 32 inputs or more,
// with 32 filters or more, become batched matmuls over gathered columns
// (im2col); the host runs of the rewritten kernels match the convolutions.
// HOST: matches the reference in 2 trial(s)

// A padded input is read through the pad's source (no padded copy); K
// (16 x 3 x 3 = 144) and the 480 pixels are padded to whole tiles (160,
// 512), the corner added to the bias.
// CHECK-LABEL: func.func @padded
// CHECK-NOT:     tensor.pad
// CHECK:         %[[COLS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x160x512xf32>)
// CHECK:           tensor.extract %arg0
// CHECK:         %[[WEIGHTS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x32x160xf32>)
// CHECK:         %[[PRODUCT:.*]] = linalg.batch_matmul ins(%[[WEIGHTS]], %[[COLS]] : tensor<2x32x160xf32>, tensor<2x160x512xf32>)
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[PRODUCT]]
// CHECK-NOT:     linalg.conv
func.func @padded(%x: tensor<2x16x20x24xf32>, %w: tensor<32x16x3x3xf32>, %bias: tensor<32xf32>) -> tensor<2x32x20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x16x20x24xf32> to tensor<2x16x22x26xf32>
  %e = tensor.empty() : tensor<2x32x20x24xf32>
  %b = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<2x32x20x24xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<2x16x22x26xf32>, tensor<32x16x3x3xf32>) outs(%b : tensor<2x32x20x24xf32>) -> tensor<2x32x20x24xf32>
  return %r : tensor<2x32x20x24xf32>
}

// Whole tiles (32 filters, 64 pixels): the product accumulates into the
// output itself, seen as (n, f, pixels).
// CHECK-LABEL: func.func @whole
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<3x32x8x8xf32> into tensor<3x32x64xf32>
// CHECK:         %[[PRODUCT:.*]] = linalg.batch_matmul {{.*}} outs(%[[FLAT]] : tensor<3x32x64xf32>)
// CHECK:         tensor.expand_shape %[[PRODUCT]]
// Grouped: 3 images of 24576 bytes of columns, 2 a group (the second
// group repeats the last image); the output takes each image's product
// from its group's.
// GROUPS-LABEL: func.func @whole
// GROUPS:         %[[COLS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x96x64xf32>)
// GROUPS:         %[[P0:.*]] = linalg.batch_matmul ins(%{{.*}}, %[[COLS]] : tensor<2x32x96xf32>, tensor<2x96x64xf32>)
// GROUPS:         %[[COLS1:.*]] = linalg.generic {{.*}} outs(%[[COLS]] : tensor<2x96x64xf32>)
// GROUPS:           arith.minsi %{{.*}}, %c2
// GROUPS:         %[[P1:.*]] = linalg.batch_matmul ins(%{{.*}}, %[[COLS1]] : tensor<2x32x96xf32>, tensor<2x96x64xf32>)
// GROUPS:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x32x8x8xf32>)
// GROUPS:           tensor.extract %[[P0]]
// GROUPS:           tensor.extract %[[P1]]
// GROUPS:           arith.select
func.func @whole(%x: tensor<3x8x10x10xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<3x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x32x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x32x8x8xf32>) -> tensor<3x32x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<3x8x10x10xf32>, tensor<32x8x3x3xf32>) outs(%f : tensor<3x32x8x8xf32>) -> tensor<3x32x8x8xf32>
  return %r : tensor<3x32x8x8xf32>
}

// Strides and dilations of 2, odd sizes, the output an argument (its corner
// written into it in place).
// CHECK-LABEL: func.func @strided_dilated
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.generic {{.*}} outs(%arg2 : tensor<2x32x7x8xf32>)
func.func @strided_dilated(%x: tensor<2x4x17x19xf32>, %w: tensor<32x4x3x3xf32>, %out: tensor<2x32x7x8xf32>) -> tensor<2x32x7x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x4x17x19xf32>, tensor<32x4x3x3xf32>) outs(%out : tensor<2x32x7x8xf32>) -> tensor<2x32x7x8xf32>
  return %r : tensor<2x32x7x8xf32>
}

// CHECK-LABEL: func.func @conv1d
// CHECK:         linalg.batch_matmul {{.*}} tensor<3x64x32xf32>
func.func @conv1d(%x: tensor<3x8x50xf32>, %w: tensor<37x8x5xf32>) -> tensor<3x37x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x37x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x37x23xf32>) -> tensor<3x37x23xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%x, %w : tensor<3x8x50xf32>, tensor<37x8x5xf32>) outs(%f : tensor<3x37x23xf32>) -> tensor<3x37x23xf32>
  return %r : tensor<3x37x23xf32>
}

// CHECK-LABEL: func.func @conv3d
// CHECK:         linalg.batch_matmul
func.func @conv3d(%x: tensor<1x4x6x7x8xf32>, %w: tensor<32x4x2x2x2xf32>) -> tensor<1x32x5x6x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x5x6x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x5x6x7xf32>) -> tensor<1x32x5x6x7xf32>
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%x, %w : tensor<1x4x6x7x8xf32>, tensor<32x4x2x2x2xf32>) outs(%f : tensor<1x32x5x6x7xf32>) -> tensor<1x32x5x6x7xf32>
  return %r : tensor<1x32x5x6x7xf32>
}

// 27 reads per output, or 24 filters: left to the window plans.
// CHECK-LABEL: func.func @few_reads
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @few_filters
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @few_reads(%x: tensor<2x3x10x10xf32>, %w: tensor<16x3x3x3xf32>, %out: tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x10x10xf32>, tensor<16x3x3x3xf32>) outs(%out : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %r : tensor<2x16x8x8xf32>
}
func.func @few_filters(%x: tensor<2x8x10x10xf32>, %w: tensor<24x8x3x3xf32>, %out: tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x8x10x10xf32>, tensor<24x8x3x3xf32>) outs(%out : tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32>
  return %r : tensor<2x24x8x8xf32>
}

// Long sums (K = 32 x 3 x 3 = 288) pay with 24 filters, not with 23.
// CHECK-LABEL: func.func @long_sums_fewer_filters
// CHECK:         linalg.batch_matmul
// CHECK-LABEL: func.func @long_sums_too_few_filters
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @long_sums_fewer_filters(%x: tensor<2x32x10x10xf32>, %w: tensor<24x32x3x3xf32>, %out: tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x32x10x10xf32>, tensor<24x32x3x3xf32>) outs(%out : tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32>
  return %r : tensor<2x24x8x8xf32>
}
func.func @long_sums_too_few_filters(%x: tensor<2x32x10x10xf32>, %w: tensor<23x32x3x3xf32>, %out: tensor<2x23x8x8xf32>) -> tensor<2x23x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x32x10x10xf32>, tensor<23x32x3x3xf32>) outs(%out : tensor<2x23x8x8xf32>) -> tensor<2x23x8x8xf32>
  return %r : tensor<2x23x8x8xf32>
}

// Channels last: cols[n, p, k] over k = (w..., c) (the input's contiguous
// channels innermost) times the filter as weights[n, k, f]; the product is
// (n, pixels, f).
// CHECK-LABEL: func.func @nhwc_padded
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x512x160xf32>, tensor<2x160x32xf32>)
// CHECK-LABEL: func.func @nhwc_whole
// CHECK:         tensor.collapse_shape %arg2 {{\[\[}}0], [1, 2], [3]] : tensor<3x8x8x64xf32> into tensor<3x64x64xf32>
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x64x96xf32>, tensor<3x96x64xf32>)
// CHECK-LABEL: func.func @nhwc_fhwc_strided
// CHECK:         linalg.batch_matmul
// CHECK-LABEL: func.func @nwc
// CHECK:         linalg.batch_matmul
// CHECK-LABEL: func.func @ndhwc
// CHECK:         linalg.batch_matmul
func.func @nhwc_padded(%x: tensor<2x20x24x16xf32>, %w: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>) -> tensor<2x20x24x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x20x24x16xf32> to tensor<2x22x26x16xf32>
  %e = tensor.empty() : tensor<2x20x24x32xf32>
  %b = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<2x20x24x32xf32>) dimensions = [0, 1, 2]
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<2x22x26x16xf32>, tensor<3x3x16x32xf32>) outs(%b : tensor<2x20x24x32xf32>) -> tensor<2x20x24x32xf32>
  return %r : tensor<2x20x24x32xf32>
}
func.func @nhwc_whole(%x: tensor<3x10x10x8xf32>, %w: tensor<3x3x8x64xf32>, %out: tensor<3x8x8x64xf32>) -> tensor<3x8x8x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<3x10x10x8xf32>, tensor<3x3x8x64xf32>) outs(%out : tensor<3x8x8x64xf32>) -> tensor<3x8x8x64xf32>
  return %r : tensor<3x8x8x64xf32>
}
func.func @nhwc_fhwc_strided(%x: tensor<2x17x19x4xf32>, %w: tensor<40x3x3x4xf32>, %out: tensor<2x7x8x40xf32>) -> tensor<2x7x8x40xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x17x19x4xf32>, tensor<40x3x3x4xf32>) outs(%out : tensor<2x7x8x40xf32>) -> tensor<2x7x8x40xf32>
  return %r : tensor<2x7x8x40xf32>
}
func.func @nwc(%x: tensor<3x50x8xf32>, %w: tensor<5x8x37xf32>, %out: tensor<3x23x37xf32>) -> tensor<3x23x37xf32> {
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%x, %w : tensor<3x50x8xf32>, tensor<5x8x37xf32>) outs(%out : tensor<3x23x37xf32>) -> tensor<3x23x37xf32>
  return %r : tensor<3x23x37xf32>
}
func.func @ndhwc(%x: tensor<1x6x7x8x4xf32>, %w: tensor<2x2x2x4x32xf32>, %out: tensor<1x5x6x7x32xf32>) -> tensor<1x5x6x7x32xf32> {
  %r = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%x, %w : tensor<1x6x7x8x4xf32>, tensor<2x2x2x4x32xf32>) outs(%out : tensor<1x5x6x7x32xf32>) -> tensor<1x5x6x7x32xf32>
  return %r : tensor<1x5x6x7x32xf32>
}

// A dynamic number of images (a frontend's batch): every image's columns at
// once, the gathered tensors and the product sized by the input's first
// dimension; the result built from tensor.empty and returned.
// RUN: qimeng-run --cpu --verify --trials=2 --entry=dynamic_padded --shape=0=3x16x20x24 --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=dynamic_nhwc_whole --shape=0=2x10x10x8 --shape=2=2x8x8x64 --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST
// CHECK-LABEL: func.func @dynamic_padded
// CHECK-NOT:     tensor.pad
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NEXT:    tensor.empty(%[[N]]) : tensor<?x32x20x24xf32>
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x160x512xf32>
// CHECK:         %[[COLS:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x160x512xf32>)
// CHECK:         %[[WEIGHTS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x32x160xf32>)
// CHECK:         %[[PRODUCT:.*]] = linalg.batch_matmul ins(%[[WEIGHTS]], %[[COLS]] : tensor<?x32x160xf32>, tensor<?x160x512xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x32x20x24xf32>)
// CHECK:           tensor.extract %[[PRODUCT]]
// CHECK-NOT:     linalg.conv
// The bound must allow for 256 images of columns: 50000 bytes do not.
// GROUPS-LABEL: func.func @dynamic_padded
// GROUPS:         linalg.conv_2d_nchw_fchw
func.func @dynamic_padded(%x: tensor<?x16x20x24xf32>, %w: tensor<32x16x3x3xf32>, %bias: tensor<32xf32>) -> tensor<?x32x20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x20x24xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x16x20x24xf32> to tensor<?x16x22x26xf32>
  %e = tensor.empty(%n) : tensor<?x32x20x24xf32>
  %b = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<?x32x20x24xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<?x16x22x26xf32>, tensor<32x16x3x3xf32>) outs(%b : tensor<?x32x20x24xf32>) -> tensor<?x32x20x24xf32>
  return %r : tensor<?x32x20x24xf32>
}

// CHECK-LABEL: func.func @dynamic_nhwc_whole
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<?x8x8x64xf32> into tensor<?x64x64xf32>
// CHECK:         linalg.batch_matmul {{.*}} -> tensor<?x64x64xf32>
func.func @dynamic_nhwc_whole(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x64xf32>, %out: tensor<?x8x8x64xf32>) -> tensor<?x8x8x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x64xf32>) outs(%out : tensor<?x8x8x64xf32>) -> tensor<?x8x8x64xf32>
  return %r : tensor<?x8x8x64xf32>
}

// A dynamic input batch written into a static output: left to the window
// plans (the gathered tensors would not match the output's batch).
// CHECK-LABEL: func.func @dynamic_input_static_output
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @dynamic_input_static_output(%x: tensor<?x16x10x10xf32>, %w: tensor<32x16x3x3xf32>, %out: tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<?x16x10x10xf32>, tensor<32x16x3x3xf32>) outs(%out : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  return %r : tensor<2x32x8x8xf32>
}
