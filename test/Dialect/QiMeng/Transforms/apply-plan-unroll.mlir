// unroll: the serial K loop made by the reduction tile is unrolled by 2 after
// the accumulator went into registers (32 K steps per iteration).
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @mm
// CHECK:       gpu.launch
// CHECK:         scf.for %{{.*}} = %c0 to %c128 step %c32 iter_args(%{{.*}}) -> (vector<4x4xf32>) {
// CHECK-COUNT-4: gpu.barrier
// CHECK:         }
// CHECK-NOT:   qimeng.loop
func.func @mm(%A: memref<256x128xf32>, %B: memref<128x512xf32>, %C: memref<256x512xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf32>, memref<128x512xf32>) outs(%C : memref<256x512xf32>)
  return
}
qimeng.plan @mm provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.unroll "mm" dim 2 factor 2
}
