// The built-in micro-coder, one action at a time (steps=N applies the first
// N actions), then the whole plan mapped to the GPU.
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan=steps=1 | FileCheck %s --check-prefix=BLOCK
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan=steps=2 | FileCheck %s --check-prefix=REDUCTION
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan=steps=3 | FileCheck %s --check-prefix=PROMOTE
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan=steps=4 | FileCheck %s --check-prefix=THREAD
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan=steps=5 | FileCheck %s --check-prefix=VECTOR
// RUN: qimeng-opt %S/Inputs/matmul-memref.mlir --qimeng-apply-plan | FileCheck %s --check-prefix=FULL

// tile to blocks: a 4x8 grid of 64x64 tiles.
// BLOCK-LABEL: func.func @mm
// BLOCK:       scf.forall ({{.*}}) in (4, 8) {
// BLOCK:         linalg.matmul {qimeng.tag = "mm"} {{.*}} memref<64x128xf32
// BLOCK:       } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// BLOCK-NOT:   qimeng.plan

// serial reduction tile: K in steps of 16.
// REDUCTION:   scf.forall
// REDUCTION:     scf.for %{{.*}} = %c0 to %c128 step %c16 {
// REDUCTION:       linalg.matmul {qimeng.tag = "mm"} {{.*}} memref<64x16xf32

// promote A and B: shared (workgroup) buffers, copies spread over threads.
// PROMOTE:     memref.alloca() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
// PROMOTE:     memref.alloca() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
// PROMOTE:     scf.forall ({{.*}}) in (64, 4) {
// PROMOTE:       linalg.copy {{.*}} memref<1x4xf32
// PROMOTE:     } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// PROMOTE:     scf.forall ({{.*}}) in (16, 16) {
// PROMOTE:       linalg.copy
// PROMOTE:     linalg.matmul {qimeng.tag = "mm"} {{.*}}#gpu.address_space<workgroup>

// tile to threads: 16x16 threads, 4x4 outputs each.
// THREAD:      scf.forall ({{.*}}) in (16, 16) {
// THREAD:        linalg.matmul {qimeng.tag = "mm"} {{.*}} memref<4x16xf32, {{.*}}#gpu.address_space<workgroup>>{{.*}} memref<16x4xf32
// THREAD:      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}

// vectorize: the per-thread matmul becomes a vector.contract.
// VECTOR:      vector.transfer_read {{.*}} vector<1x4xf32>
// VECTOR:      vector.contract {{.*}} vector<4x16xf32>, vector<16x4xf32> into vector<4x4xf32>
// VECTOR-NOT:  linalg.matmul

// whole plan: one gpu.launch, shared memory as workgroup globals, barriers,
// the accumulator kept in registers across K, 128-bit global accesses.
// FULL-LABEL:  func.func @mm
// FULL:        gpu.launch blocks({{.*}}) in ({{.*}} = %c8{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}})
// FULL:          vector.load {{.*}} {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// FULL:          scf.for {{.*}} iter_args({{.*}}) -> (vector<4x4xf32>)
// FULL:            memref.get_global
// FULL:            vector.load {{.*}} {alignment = 16 : i64} : memref<256x128xf32>, vector<4xf32>
// FULL:            gpu.barrier
// FULL:            vector.fma
// FULL:          vector.store {{.*}} {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// FULL-NOT:    linalg.
// FULL-NOT:    qimeng.plan
// FULL:        memref.global "private" @{{.*}} : memref<4096xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
