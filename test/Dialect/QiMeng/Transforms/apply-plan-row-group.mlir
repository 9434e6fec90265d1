// A row-wise kernel: a fill, a reduction along the row and an elementwise op
// over the row, each a row per warp, fused into one launch. The warps'
// barriers order the three; the lanes stride over the row (the reduction with
// shuffles, the elementwise op with a plain loop; each loop in trips of 4
// iterations, the rest of the row in one trip of masked iterations, whose
// stores are guarded), and lane 0 writes the fill.
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @normalize
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:         %[[LANE0:.+]] = gpu.lane_id upper_bound 32
// CHECK:         scf.if
// CHECK:           memref.store %cst{{.*}}, %[[SUM:.+]][%c0]
// CHECK:         gpu.barrier
// CHECK:         %[[PART:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %c904 step %c128 iter_args
// CHECK-COUNT-4:   memref.load
// CHECK:         %[[ANY:.+]] = arith.cmpi ult, %[[PART]]#1, %c1000
// CHECK:         scf.if %[[ANY]] -> (f32) {
// CHECK-COUNT-3:   arith.cmpi ult
// CHECK:         }
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK:         gpu.barrier
// CHECK:         %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK:         %[[NEXT:.+]] = scf.for %[[J:.+]] = %[[LANE]] to %c904 step %c128 iter_args
// CHECK:           %[[X:.+]] = memref.load %{{.+}}[%c0, %[[J]]]
// CHECK:           %[[S:.+]] = memref.load %{{.+}}[%c0]
// CHECK:           %[[D:.+]] = arith.divf %[[X]], %[[S]]
// CHECK:           memref.store %[[D]], %{{.+}}[%c0, %[[J]]]
// CHECK:         %[[REST:.+]] = arith.cmpi ult, %[[NEXT]], %c1000
// CHECK:         scf.if %[[REST]] {
// CHECK:           %[[VALID:.+]] = arith.cmpi ult, %[[NEXT]], %c1000
// CHECK:           scf.if %[[VALID]] {
// CHECK-NEXT:        memref.store
// CHECK:         gpu.barrier
// CHECK:         gpu.terminator
// CHECK-NOT:   gpu.launch
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @normalize(%X: memref<2048x1000xf32>, %Y: memref<2048x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<2048xf32>
  linalg.fill {qimeng.tag = "f"} ins(%zero : f32) outs(%sum : memref<2048xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : memref<2048x1000xf32>) outs(%sum : memref<2048xf32>) attrs = {qimeng.tag = "r"} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%X, %sum : memref<2048x1000xf32>, memref<2048xf32>) outs(%Y : memref<2048x1000xf32>) attrs = {qimeng.tag = "e"} {
  ^bb0(%x: f32, %s: f32, %y: f32):
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  }
  memref.dealloc %sum : memref<2048xf32>
  return
}
qimeng.plan @normalize provenance "builtin" {
  qimeng.tile "f" [8] to block
  qimeng.tile "f" [1] to warp
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [1, 0] to warp
  qimeng.tile "e" [8, 0] to block
  qimeng.tile "e" [1, 0] to warp
  qimeng.fuse "e" producer "r"
  qimeng.fuse "e" producer "f"
}
