// pipeline: the shared tiles of the K loop get one buffer per stage, are
// filled by asynchronous copies (one group per stage: no barrier between the
// A and B copies) and the loop is software-pipelined, its last iteration
// peeled.
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @mm
// CHECK:       gpu.launch
// CHECK:         %[[B:.+]] = memref.get_global @{{.*}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[A:.+]] = memref.get_global @{{.*}} : memref<2x64x16xf32, #gpu.address_space<workgroup>>
// Prologue: stage 0 and 1 in flight.
// CHECK:         nvgpu.device_async_copy {{.*}}, %[[A]][%c0, {{.*}}], 4 {bypassL1}
// CHECK-NOT:     gpu.barrier
// CHECK:         nvgpu.device_async_copy {{.*}}, %[[B]][%c0, {{.*}}], 4 {bypassL1}
// CHECK:         nvgpu.device_async_create_group
// CHECK:         nvgpu.device_async_copy {{.*}}, %[[A]][%c1, {{.*}}], 4 {bypassL1}
// CHECK:         nvgpu.device_async_create_group
// Steady state: wait for the oldest stage, compute, refill its buffer.
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (vector<4x4xf32>, !nvgpu.device.async.token, !nvgpu.device.async.token)
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:           gpu.barrier
// CHECK:           vector.fma
// CHECK:           gpu.barrier
// CHECK:           nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_create_group
// CHECK:           scf.yield
// Epilogue: the last stage.
// CHECK:         nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:         vector.fma
// CHECK-NOT:   qimeng.
// CHECK:       memref.global "private" @{{.*}} : memref<2x16x64xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
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
  qimeng.pipeline "mm" stages 2
}
