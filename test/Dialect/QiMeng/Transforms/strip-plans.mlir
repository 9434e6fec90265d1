// RUN: qimeng-opt %s --qimeng-strip-plans | FileCheck %s

// CHECK-LABEL: func.func @mm
// CHECK:       linalg.matmul ins(
// CHECK-NOT:   qimeng
func.func @mm(%A: tensor<128x64xf32>, %B: tensor<64x32xf32>, %C: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<128x64xf32>, tensor<64x32xf32>) outs(%C : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
}
qimeng.plan @mm provenance "builtin" {
  qimeng.tile "mm" [64, 32, 0] to block
}
