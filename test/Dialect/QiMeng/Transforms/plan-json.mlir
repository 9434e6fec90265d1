// Export a plan to JSON, import it into the bare kernel, and get the same IR.
// RUN: qimeng-opt %s --qimeng-export-plan-json=output=%t.json -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: qimeng-opt %S/Inputs/matmul.mlir --qimeng-import-plan-json=input=%t.json | FileCheck %s
// Importing replaces an existing plan of the same kernel.
// RUN: qimeng-opt %s --qimeng-import-plan-json=input=%t.json | FileCheck %s --check-prefix=ONE

// JSON:      "actions": [
// JSON-NEXT:   {
// JSON-NEXT:     "action": "tile",
// JSON-NEXT:     "interchange": [],
// JSON-NEXT:     "lanes": 32,
// JSON-NEXT:     "level": "block",
// JSON-NEXT:     "sizes": [
// JSON-NEXT:       64,
// JSON-NEXT:       32,
// JSON-NEXT:       0
// JSON-NEXT:     ],
// JSON-NEXT:     "target": "mm"
// JSON:          "action": "promote",
// JSON-NEXT:     "operands": [
// JSON:          "pad": 4,
// JSON:          "action": "vectorize",
// JSON-NEXT:     "target": "mm",
// JSON-NEXT:     "width": 4
// JSON:        "kernel": "mm",
// JSON-NEXT:   "provenance": "llm:test"

// CHECK-LABEL: func.func @mm
// CHECK:       qimeng.plan @mm provenance "llm:test" {
// CHECK-NEXT:    qimeng.tile "mm" [64, 32, 0] to block
// CHECK-NEXT:    qimeng.tile "mm" [0, 0, 16] to reduction interchange [0, 2, 1]
// CHECK-NEXT:    qimeng.promote "mm" operands [0, 1] pad 4
// CHECK-NEXT:    qimeng.tile "mm" [4, 4, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "mm" width 4
// CHECK-NEXT:    qimeng.unroll "mm" dim 2 factor 4
// CHECK-NEXT:    qimeng.pipeline "mm" stages 2
// CHECK-NEXT:  }

// ONE-COUNT-1: qimeng.plan
// ONE-NOT:     qimeng.plan

func.func @mm(%A: tensor<128x64xf32>, %B: tensor<64x32xf32>, %C: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<128x64xf32>, tensor<64x32xf32>) outs(%C : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
}
qimeng.plan @mm provenance "llm:test" {
  qimeng.tile "mm" [64, 32, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction interchange [0, 2, 1]
  qimeng.promote "mm" operands [0, 1] pad 4
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.unroll "mm" dim 2 factor 4
  qimeng.pipeline "mm" stages 2
}
