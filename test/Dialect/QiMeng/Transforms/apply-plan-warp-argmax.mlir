// An argmax tiled to warps: each lane scans its strided slice of the row from
// the output's values with the op's own body (in 128-bit vectors, in index
// order: 250 of them, 8 per lane in one trip, the last masked), then the
// lanes exchange (value, index) pairs: the other lane's wins when its value
// is greater, or equal at a smaller index (the first maximum, as the serial loop finds it); the index's
// 64 bits move in two shuffles; lane 0 stores both.
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @argmax
// CHECK:         %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK:         %[[V0:.+]] = memref.load %{{.+}}[%c0] : memref<1xf32
// CHECK:         %[[I0:.+]] = memref.load %{{.+}}[%c0] : memref<1xi64
// CHECK-NOT:     scf.for
// CHECK:         %[[FIRST:.+]] = arith.muli %[[LANE]], %c4
// CHECK:         %[[VEC:.+]] = vector.load %{{.+}}[%c0, %[[FIRST]]] {alignment = 16 : i64} : memref<1x1000xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[X:.+]] = vector.extract %[[VEC]][0]
// CHECK:         %[[AT:.+]] = arith.index_cast %[[FIRST]] : index to i64
// CHECK:         arith.cmpf ogt, %[[X]], %[[V0]]
// CHECK-COUNT-6: vector.load
// CHECK:         %[[VALID:.+]] = arith.cmpi ult, %{{.+}}, %c250
// CHECK:         arith.select %[[VALID]], %{{.+}}, %c249
// CHECK:         vector.load
// CHECK-NOT:     scf.for
// CHECK:         arith.cmpf ogt
// CHECK:         arith.cmpf oeq
// CHECK:         arith.cmpi slt
// CHECK-COUNT-4: arith.cmpi slt
// CHECK:         scf.if
// CHECK:           memref.store %{{.+}} : memref<1xf32
// CHECK:           memref.store %{{.+}} : memref<1xi64
// CHECK-NOT:     linalg.generic
func.func @argmax(%x: memref<64x1000xf32>, %v: memref<64xf32>, %i: memref<64xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf32>) outs(%v, %i : memref<64xf32>, memref<64xi64>) attrs = {qimeng.tag = "r"} {
  ^bb0(%a: f32, %b: f32, %c: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %b : f32
    %s = arith.select %gt, %a, %b : f32
    %t = arith.select %gt, %jj, %c : i64
    linalg.yield %s, %t : f32, i64
  }
  return
}
qimeng.plan @argmax provenance "builtin" {
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [1, 0] to warp
}
