// A row-wise kernel: a fill, a reduction along the row and an elementwise op
// over the row, each a row per warp, fused into one launch. The warps'
// barriers order the three; the lanes stride over the row in 128-bit
// vectors (the reduction combined with shuffles); a row of 250 vectors is 8
// per lane, one trip whose last vector is masked (its store guarded); lane
// 0 writes the fill.
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @normalize
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:         %[[LANE0:.+]] = gpu.lane_id upper_bound 32
// CHECK:         scf.if
// CHECK:           memref.store %cst{{.*}}, %[[SUM:.+]][%c0]
// CHECK:         gpu.barrier
// CHECK-NOT:     scf.for
// CHECK-COUNT-7: vector.load %{{.+}} {alignment = 16 : i64} : memref<1x1000xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[LAST:.+]] = arith.cmpi ult, %{{.+}}, %c250
// CHECK:         vector.load
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK:         gpu.barrier
// CHECK:         %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK:         %[[X:.+]] = vector.load %{{.+}}[%c0, %[[J:.+]]] {alignment = 16 : i64}
// CHECK:         %[[S:.+]] = memref.load %{{.+}}[%c0]
// CHECK:         arith.divf %{{.+}}, %[[S]]
// CHECK-COUNT-3: arith.divf
// CHECK:         vector.store %{{.+}}, %{{.+}}[%c0, %[[J]]] {alignment = 16 : i64}
// CHECK-COUNT-6: vector.store
// CHECK:         %[[VALID:.+]] = arith.cmpi ult, %{{.+}}, %c250
// CHECK:         scf.if %[[VALID]] {
// CHECK:           vector.store
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
