// fuse: the fill (producer) and the bias + ReLU (consumer) run in the
// matmul's blocks: one gpu.launch computes all three, each thread on the same
// 4x4 box of C (so no barrier separates the matmul from the consumer).
// RUN: qimeng-opt %s --qimeng-apply-plan=steps=14 | FileCheck %s --check-prefix=LOOPS
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s

// All actions (before the GPU mapping): one block loop holds the three
// thread loops, in program order.
// LOOPS-LABEL: func.func @lbr
// LOOPS:       scf.forall ({{.*}}) in (4, 8) {
// LOOPS:         scf.forall ({{.*}}) in (16, 16) {
// LOOPS:           vector.transfer_write %cst
// LOOPS:         } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// LOOPS:         scf.for
// LOOPS:           scf.forall ({{.*}}) in (16, 16) {
// LOOPS:             vector.contract
// LOOPS:         scf.forall ({{.*}}) in (16, 16) {
// LOOPS:           arith.maximumf {{.*}} : vector<4x4xf32>
// LOOPS:         } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// LOOPS:       } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// LOOPS-NOT:   scf.forall

// CHECK-LABEL: func.func @lbr
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c8{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:         vector.store %cst, %[[C:.+]][{{.*}}] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// CHECK:         gpu.barrier
// CHECK:         nvgpu.device_async_copy
// CHECK:         vector.fma
// CHECK:         vector.store %{{.*}}, %[[C]][{{.*}}] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// CHECK-NOT:     gpu.barrier
// CHECK:         vector.load %[[C]]
// CHECK:         arith.maximumf {{.*}} : vector<4x4xf32>
// CHECK:         vector.store %{{.*}}, %[[Y:.+]][{{.*}}] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// CHECK:         gpu.terminator
// CHECK-NOT:   gpu.launch
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @lbr(%X: memref<256x128xf32>, %W: memref<128x512xf32>, %b: memref<512xf32>, %C: memref<256x512xf32>, %Y: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%X, %W : memref<256x128xf32>, memref<128x512xf32>) outs(%C : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C, %b : memref<256x512xf32>, memref<512xf32>) outs(%Y : memref<256x512xf32>) attrs = {qimeng.tag = "ew"} {
  ^bb0(%c: f32, %bb: f32, %y: f32):
    %s = arith.addf %c, %bb : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
qimeng.plan @lbr provenance "tuned" {
  qimeng.tile "fill" [64, 64] to block
  qimeng.tile "fill" [4, 4] to thread
  qimeng.vectorize "fill" width 4
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.pipeline "mm" stages 2
  qimeng.tile "ew" [64, 64] to block
  qimeng.tile "ew" [4, 4] to thread
  qimeng.vectorize "ew" width 4
  qimeng.fuse "mm" producer "fill"
  qimeng.fuse "mm" consumer "ew"
}
