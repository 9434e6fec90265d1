// RUN: qimeng-opt --qimeng-widen-accumulators %s | FileCheck %s

// A row sum of squares in f32: extended init, body in f64 (the constant
// from above the body extended in it), truncated back into the original
// destination (the output argument).
// CHECK-LABEL: func.func @sum_squares
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%arg1 : tensor<16xf32>)
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[FILL]] : tensor<16xf32>) outs(%{{.*}} : tensor<16xf64>)
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[INIT]] : tensor<16xf64>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f64):
// CHECK: %[[X:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK: %[[HALF:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: arith.mulf %[[SQ]], %[[HALF]] : f64
// CHECK: arith.addf %{{.*}}, %[[ACC]] : f64
// CHECK: linalg.yield %{{.*}} : f64
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[WIDE]] : tensor<16xf64>) outs(%[[FILL]] : tensor<16xf32>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: return %[[OUT]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_squares(%x: tensor<16x4096xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %z = linalg.fill ins(%zero : f32) outs(%y : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x4096xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %h = arith.mulf %sq, %half : f32
    %r = arith.addf %h, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// A named f16 matmul accumulates in f16 as written (its rounding is the
// program's); only the generalization is left behind.
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NOT: f64
// CHECK: return
func.func @matmul_f16(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>, %c: tensor<8x4xf16>) -> tensor<8x4xf16> {
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x4xf16>) outs(%c : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %m : tensor<8x4xf16>
}

// CHECK-LABEL: func.func @rounded_terms
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f64):
// CHECK: %[[X:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK: %[[T:.*]] = arith.truncf %[[X]] : f64 to f16
// CHECK: arith.extf %[[T]] : f16 to f64
func.func @rounded_terms(%x: tensor<16x64xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%y : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.truncf %v : f32 to f16
    %e = arith.extf %t : f16 to f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// Left alone: elementwise ops, integer and f64 reductions, memrefs.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: f64
// CHECK: return
func.func @untouched(%x: tensor<16x64xi32>, %y: tensor<16xi32>, %a: memref<16x64xf32>, %b: memref<16xf32>) -> tensor<16xi32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xi32>) outs(%y : tensor<16xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %r = arith.addi %v, %acc : i32
    linalg.yield %r : i32
  } -> tensor<16xi32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<16x64xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  return %s : tensor<16xi32>
}

// -----

// A reduction whose body already extends its f32 input to f64 (torch's
// upcast of a log-sum-exp): the extension of the widened value is that
// value, not an f64-to-f64 extf.
// CHECK-LABEL: func.func @already_f64
// CHECK:       linalg.generic
// CHECK-NOT:     arith.extf %{{.*}} : f64 to f64
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f64
func.func @already_f64(%x: tensor<8x64xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %w = arith.extf %a : f32 to f64
    %v = arith.extf %acc : f32 to f64
    %s = arith.addf %w, %v : f64
    %r = arith.truncf %s : f64 to f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
