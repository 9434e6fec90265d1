// A reduction tile over several loops makes one serial loop per tiled loop.
// RUN: qimeng-opt %s --qimeng-apply-plan=steps=2 | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK:       scf.forall
// CHECK:         scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK:           scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK:             scf.for %{{.*}} = %c0 to %c16 step %c8 {
// CHECK:               linalg.conv_2d_nhwc_hwcf
func.func @conv(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16x32xf32>, %y: memref<1x8x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {qimeng.tag = "conv", dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16x32xf32>) outs(%y : memref<1x8x8x32xf32>)
  return
}
qimeng.plan @conv provenance "builtin" {
  qimeng.tile "conv" [0, 1, 8, 32, 0, 0, 0] to block
  qimeng.tile "conv" [0, 0, 0, 0, 1, 1, 8] to reduction
  qimeng.tile "conv" [0, 1, 1, 1, 0, 0, 0] to thread
}
