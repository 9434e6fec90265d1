// A reduction of 64-bit values tiled to warps: the lanes' partial sums are
// combined by a butterfly of the op's own combiner, each step moving a value
// in two 32-bit shuffles (the subgroup-reduce lowering takes 32 bits only).
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s
// CHECK-LABEL: func.func @rowsum64
// CHECK:         %[[PART:.+]] = scf.for {{.*}} step %c128 {{.*}} -> (f64)
// CHECK:         %[[BITS:.+]] = arith.bitcast %[[PART]] : f64 to i64
// CHECK:         %[[LO:.+]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK:         gpu.shuffle xor %[[LO]], %c1_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : i32
// CHECK:         %[[OTHER:.+]] = arith.bitcast %{{.+}} : i64 to f64
// CHECK:         arith.addf %[[OTHER]], %[[PART]] : f64
// CHECK-COUNT-4: arith.addf %{{.+}}, %{{.+}} : f64
// CHECK-NOT:     gpu.subgroup_reduce
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowsum64(%X: memref<1024x4096xf64>, %Y: memref<1024xf64>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : memref<1024x4096xf64>) outs(%Y : memref<1024xf64>) attrs = {qimeng.tag = "r"} {
  ^bb0(%x: f64, %acc: f64):
    %s = arith.addf %x, %acc : f64
    linalg.yield %s : f64
  }
  return
}
qimeng.plan @rowsum64 provenance "builtin" {
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [1, 0] to warp
}
