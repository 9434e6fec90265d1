// Debian's mlir-opt loads QiMeng as a dialect and pass plugin.
// REQUIRES: plugin
// RUN: %mlir_opt %s --load-dialect-plugin=%qimeng_plugin --load-pass-plugin=%qimeng_plugin | FileCheck %s
// Plugin passes are named in --pass-pipeline (mlir-opt parses its flags
// before it loads pass plugins).
// RUN: %mlir_opt %s --load-dialect-plugin=%qimeng_plugin --load-pass-plugin=%qimeng_plugin --pass-pipeline='builtin.module(qimeng-export-plan-json)' -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: %mlir_opt %s --load-dialect-plugin=%qimeng_plugin --load-pass-plugin=%qimeng_plugin --pass-pipeline='builtin.module(qimeng-strip-plans)' | FileCheck %s --check-prefix=STRIP

// CHECK: qimeng.plan @mm provenance "builtin" {
// CHECK-NEXT: qimeng.tile "mm" [64, 32, 0] to block
// CHECK-NEXT: qimeng.vectorize "mm" width 4
// JSON: "action": "tile",
// JSON: "kernel": "mm",
// STRIP-NOT: qimeng

func.func @mm(%A: tensor<128x64xf32>, %B: tensor<64x32xf32>, %C: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<128x64xf32>, tensor<64x32xf32>) outs(%C : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
}
qimeng.plan @mm provenance "builtin" {
  qimeng.tile "mm" [64, 32, 0] to block
  qimeng.vectorize "mm" width 4
}
