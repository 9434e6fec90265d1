// A reduction tiled to warps: each lane folds a strided slice of the row with
// the op's own body (coalesced 128-bit loads of 4 elements, four per trip;
// the trips cover the row of 4096 whole), the lanes combine with xor
// shuffles, lane 0 folds the total into the output.
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @rowmax
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:         %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK:         %[[PART:.+]] = scf.for %[[G:.+]] = %[[LANE]] to %c928 step %c128 iter_args(%[[ACC:.+]] = %[[NEG:.+]]) -> (f32) {
// CHECK:           %[[FIRST:.+]] = arith.muli %[[G]], %c4
// CHECK:           %[[V:.+]] = vector.load %{{.*}}[%c0, %[[FIRST]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK:           %[[X:.+]] = vector.extract %[[V]][0]
// CHECK:           %[[E:.+]] = math.exp %[[X]]
// CHECK:           arith.maximumf %[[E]], %[[ACC]]
// CHECK-COUNT-15:  math.exp
// CHECK-NOT:     scf.if
// CHECK:         gpu.shuffle xor %[[PART]],
// CHECK-COUNT-4:   gpu.shuffle xor
// CHECK:         %[[OLD:.+]] = memref.load %[[OUT:.+]][%c0]
// CHECK:         %[[NEW:.+]] = arith.maximumf %{{.*}}, %[[OLD]]
// CHECK:         %[[IS0:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:         scf.if %[[IS0]] {
// CHECK:           memref.store %[[NEW]], %[[OUT]][%c0]
// CHECK-NOT:   linalg.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowmax(%X: memref<1024x4096xf32>, %Y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : memref<1024x4096xf32>) outs(%Y : memref<1024xf32>) attrs = {qimeng.tag = "r"} {
  ^bb0(%x: f32, %acc: f32):
    %e = math.exp %x : f32
    %m = arith.maximumf %e, %acc : f32
    linalg.yield %m : f32
  }
  return
}
qimeng.plan @rowmax provenance "builtin" {
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [1, 0] to warp
}
