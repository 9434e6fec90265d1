// RUN: qimeng-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// A promoted 16 x 16 f64 tile of A and 16 x 32 of B get 4 elements after
// each row (rows 160 and 288 bytes apart instead of 128 and 256): the
// bytes grow, the view takes the padded shape, and the tile the matmul
// and the copy use is its 16 x 16 (16 x 32) corner with the padded stride.
// CHECK-LABEL: func.func @padded
// CHECK-DAG:     %[[A:.+]] = memref.alloca() {alignment = 16 : i64} : memref<2560xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[B:.+]] = memref.alloca() {alignment = 16 : i64} : memref<4608xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[VA:.+]] = memref.view %[[A]][%{{.+}}][] : memref<2560xi8, #gpu.address_space<workgroup>> to memref<16x20xf64, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[TA:.+]] = memref.subview %[[VA]][0, 0] [16, 16] [1, 1] : memref<16x20xf64, #gpu.address_space<workgroup>> to memref<16x16xf64, strided<[20, 1]>, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[VB:.+]] = memref.view %[[B]][%{{.+}}][] : memref<4608xi8, #gpu.address_space<workgroup>> to memref<16x36xf64, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[TB:.+]] = memref.subview %[[VB]][0, 0] [16, 32] [1, 1] : memref<16x36xf64, #gpu.address_space<workgroup>> to memref<16x32xf64, strided<[36, 1]>, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[PA:.+]] = memref.subview %[[TA]][0, 0]
// CHECK-DAG:     %[[PB:.+]] = memref.subview %[[TB]][0, 0]
// CHECK:         linalg.copy ins(%{{.+}} : memref<16x16xf64, strided<[64, 1]>>) outs(%[[PA]] : memref<?x?xf64, strided<[20, 1]>, #gpu.address_space<workgroup>>)
// CHECK:         linalg.copy ins(%{{.+}} : memref<16x32xf64, strided<[64, 1]>>) outs(%[[PB]] : memref<?x?xf64, strided<[36, 1]>, #gpu.address_space<workgroup>>)
// CHECK:         linalg.matmul ins(%[[PA]], %[[PB]] : memref<?x?xf64, strided<[20, 1]>, #gpu.address_space<workgroup>>, memref<?x?xf64, strided<[36, 1]>, #gpu.address_space<workgroup>>)
func.func @padded(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  %ta = memref.subview %a[0, 0] [16, 16] [1, 1] : memref<64x64xf64> to memref<16x16xf64, strided<[64, 1]>>
  %tb = memref.subview %b[0, 0] [16, 32] [1, 1] : memref<64x64xf64> to memref<16x32xf64, strided<[64, 1]>>
  %tc = memref.subview %c[0, 0] [16, 32] [1, 1] : memref<64x64xf64> to memref<16x32xf64, strided<[64, 1]>>
  linalg.matmul ins(%ta, %tb : memref<16x16xf64, strided<[64, 1]>>, memref<16x32xf64, strided<[64, 1]>>) outs(%tc : memref<16x32xf64, strided<[64, 1]>>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %promoted = transform.structured.promote %mm {operands_to_promote = [0, 1], use_alloca, alignment = 16, memory_space = #gpu.address_space<workgroup>} : (!transform.any_op) -> !transform.any_op
    transform.qimeng.pad_shared_tiles %promoted {pad = 4 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// 3 f64 elements (24 bytes) would leave rows misaligned for 128-bit copies.
func.func @misaligned(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  %ta = memref.subview %a[0, 0] [16, 16] [1, 1] : memref<64x64xf64> to memref<16x16xf64, strided<[64, 1]>>
  %tb = memref.subview %b[0, 0] [16, 32] [1, 1] : memref<64x64xf64> to memref<16x32xf64, strided<[64, 1]>>
  %tc = memref.subview %c[0, 0] [16, 32] [1, 1] : memref<64x64xf64> to memref<16x32xf64, strided<[64, 1]>>
  // expected-error @below {{pads the rows of a shared 16x16xf64 tile by 3 elements, which is not a multiple of 16 bytes}}
  linalg.matmul ins(%ta, %tb : memref<16x16xf64, strided<[64, 1]>>, memref<16x32xf64, strided<[64, 1]>>) outs(%tc : memref<16x32xf64, strided<[64, 1]>>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %promoted = transform.structured.promote %mm {operands_to_promote = [0, 1], use_alloca, alignment = 16, memory_space = #gpu.address_space<workgroup>} : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not pad the shared-memory tiles of the target}}
    transform.qimeng.pad_shared_tiles %promoted {pad = 3 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing promoted: nothing to pad.
func.func @not_promoted(%a: memref<16x16xf64>, %b: memref<16x32xf64>, %c: memref<16x32xf64>) {
  // expected-error @below {{reads no shared-memory tile made by promotion}}
  linalg.matmul ins(%a, %b : memref<16x16xf64>, memref<16x32xf64>) outs(%c : memref<16x32xf64>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not pad the shared-memory tiles of the target}}
    transform.qimeng.pad_shared_tiles %mm {pad = 4 : i64} : !transform.any_op
    transform.yield
  }
}
