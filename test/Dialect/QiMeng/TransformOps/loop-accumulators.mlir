// RUN: qimeng-opt %s --transform-interpreter --split-input-file | FileCheck %s

// An argmax as convert_to_loops leaves it after move_reduction_loops_innermost:
// the value and the index each become a loop-carried value of the reduction
// loop, then of the loop around it.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME:    (%[[X:.+]]: memref<4096x?xf32>, %[[V:.+]]: memref<?xf32>, %[[I:.+]]: memref<?xi64>, %[[N:.+]]: index)
// CHECK:         scf.for %[[A:.+]] = %{{.+}} to %[[N]]
// CHECK:           %[[V0:.+]] = memref.load %[[V]][%[[A]]]
// CHECK:           %[[I0:.+]] = memref.load %[[I]][%[[A]]]
// CHECK:           %[[R:.+]]:2 = scf.for %[[K:.+]] = {{.*}} iter_args(%[[MAX:.+]] = %[[V0]], %[[IDX:.+]] = %[[I0]]) -> (f32, i64)
// CHECK-NOT:         memref.store
// CHECK:             %[[E:.+]] = memref.load %[[X]][%[[K]], %[[A]]]
// CHECK-NOT:         memref.load
// CHECK:             %[[GT:.+]] = arith.cmpf ogt, %[[E]], %[[MAX]]
// CHECK:             %[[NM:.+]] = arith.select %[[GT]], %[[E]], %[[MAX]]
// CHECK:             %[[NI:.+]] = arith.select %[[GT]], %{{.+}}, %[[IDX]]
// CHECK:             scf.yield %[[NM]], %[[NI]]
// CHECK:           memref.store %[[R]]#1, %[[I]][%[[A]]]
// CHECK:           memref.store %[[R]]#0, %[[V]][%[[A]]]
func.func @argmax(%x: memref<4096x?xf32>, %v: memref<?xf32>, %i: memref<?xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  scf.for %a = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c4096 step %c1 {
      %e = memref.load %x[%k, %a] : memref<4096x?xf32>
      %m = memref.load %v[%a] : memref<?xf32>
      %j = memref.load %i[%a] : memref<?xi64>
      %ki = arith.index_cast %k : index to i64
      %gt = arith.cmpf ogt, %e, %m : f32
      %nm = arith.select %gt, %e, %m : f32
      %nj = arith.select %gt, %ki, %j : i64
      memref.store %nm, %v[%a] : memref<?xf32>
      memref.store %nj, %i[%a] : memref<?xi64>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.hoist_loop_accumulators %f : !transform.any_op
    transform.yield
  }
}

// -----

// A load after the store in the same iteration reads the stored value; the
// view of the output (a subview) is the same buffer as the one stored to.
// CHECK-LABEL: func.func @load_after_store
// CHECK:         %[[INIT:.+]] = memref.load %[[OUT:.+]][%c0]
// CHECK:         %[[R:.+]]:2 = scf.for {{.*}} iter_args(%[[S:.+]] = %{{.+}}, %[[ACC:.+]] = %[[INIT]]) -> (f32, f32)
// CHECK-NOT:       memref.store
// CHECK:           %[[SUM:.+]] = arith.addf %[[ACC]], %{{.+}}
// CHECK:           %[[TWICE:.+]] = arith.addf %[[SUM]], %[[SUM]]
// CHECK:           %[[NS:.+]] = arith.addf %[[S]], %[[TWICE]]
// CHECK:           scf.yield %[[NS]], %[[SUM]]
// CHECK:         memref.store %[[R]]#1, %[[OUT]][%c0]
// CHECK:         return %[[R]]#0
func.func @load_after_store(%in: memref<100xf32>, %out: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %view = memref.subview %out[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  %s = scf.for %k = %c0 to %c100 step %c1 iter_args(%acc = %zero) -> f32 {
    %e = memref.load %in[%k] : memref<100xf32>
    %o = memref.load %view[%c0] : memref<2xf32, strided<[1], offset: 1>>
    %sum = arith.addf %o, %e : f32
    memref.store %sum, %view[%c0] : memref<2xf32, strided<[1], offset: 1>>
    %again = memref.load %view[%c0] : memref<2xf32, strided<[1], offset: 1>>
    %twice = arith.addf %again, %again : f32
    %next = arith.addf %acc, %twice : f32
    scf.yield %next : f32
  }
  return %s : f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.hoist_loop_accumulators %f : !transform.any_op
    transform.yield
  }
}

// -----

// Loops that must stay as they are: the location changes with the
// iteration; another element of the same buffer is read (a view of it); the
// store is conditional; a call may touch any memory.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     iter_args
// CHECK:         return
func.func @kept(%in: memref<100xf32>, %out: memref<100xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %k = %c0 to %c100 step %c1 {
    %e = memref.load %in[%k] : memref<100xf32>
    memref.store %e, %out[%k] : memref<100xf32>
  }
  %view = memref.subview %out[1] [99] [1] : memref<100xf32> to memref<99xf32, strided<[1], offset: 1>>
  scf.for %k = %c0 to %c100 step %c1 {
    %o = memref.load %out[%c0] : memref<100xf32>
    %p = memref.load %view[%c0] : memref<99xf32, strided<[1], offset: 1>>
    %sum = arith.addf %o, %p : f32
    memref.store %sum, %out[%c0] : memref<100xf32>
  }
  scf.for %k = %c0 to %c100 step %c1 {
    scf.if %c {
      %o = memref.load %out[%c0] : memref<100xf32>
      %e = memref.load %in[%k] : memref<100xf32>
      %sum = arith.addf %o, %e : f32
      memref.store %sum, %out[%c0] : memref<100xf32>
    }
  }
  scf.for %k = %c0 to %c100 step %c1 {
    %o = memref.load %out[%c0] : memref<100xf32>
    %e = memref.load %in[%k] : memref<100xf32>
    %sum = arith.addf %o, %e : f32
    memref.store %sum, %out[%c0] : memref<100xf32>
    func.call @opaque() : () -> ()
  }
  return
}
func.func private @opaque()

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.hoist_loop_accumulators %f : !transform.any_op
    transform.yield
  }
}

// -----

// A warp's accumulator tiles as the vectorized tensor-core kernel has them
// before the mma conversion: two halves of one output tile, read and written
// through views of a reshaped output (no alias folding there), with barriers
// around the shared tiles in the K loop. Each becomes a loop-carried vector
// (the other half's accesses provably touch other elements); the barriers
// stay. A read of another place of the same output keeps the second loop as
// it is.
// CHECK-LABEL: func.func @vector_tiles
// CHECK:         %[[FLAT:.+]] = memref.collapse_shape
// CHECK:         %[[TILE:.+]] = memref.subview %[[FLAT]]
// CHECK-DAG:     %[[TOP:.+]] = vector.transfer_read %[[TILE]][%c0, %c0], %{{.+}} {in_bounds = [true, true]}
// CHECK-DAG:     %[[BOTTOM:.+]] = vector.transfer_read %[[TILE]][%c8, %c0], %{{.+}} {in_bounds = [true, true]}
// CHECK:         %[[R:.+]]:2 = scf.for {{.*}} iter_args(%[[ACC0:.+]] = %{{.+}}, %[[ACC1:.+]] = %{{.+}}) -> (vector<8x8xf32>, vector<8x8xf32>)
// CHECK-NOT:       vector.transfer_write {{.*}} %[[TILE]]
// CHECK:           gpu.barrier
// CHECK-DAG:       %[[SUM0:.+]] = vector.contract {{.*}} %[[ACC0]]
// CHECK-DAG:       %[[SUM1:.+]] = vector.contract {{.*}} %[[ACC1]]
// CHECK:           gpu.barrier
// CHECK:           scf.yield
// CHECK-DAG:     vector.transfer_write %[[R]]#{{[01]}}, %[[TILE]][%c0, %c0] {in_bounds = [true, true]}
// CHECK-DAG:     vector.transfer_write %[[R]]#{{[01]}}, %[[TILE]][%c8, %c0] {in_bounds = [true, true]}
// CHECK:         scf.for
// CHECK-NOT:       iter_args
// CHECK:           vector.transfer_write
// CHECK:         return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @vector_tiles(%x: memref<16x64xf32>, %w: memref<64x8xf32>, %y: memref<2x8x8xf32>, %other: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %flat = memref.collapse_shape %y [[0, 1], [2]] : memref<2x8x8xf32> into memref<16x8xf32>
  %tile = memref.subview %flat[0, 0] [16, 8] [1, 1] : memref<16x8xf32> to memref<16x8xf32, strided<[8, 1]>>
  scf.for %k = %c0 to %c64 step %c8 {
    gpu.barrier
    %a0 = vector.transfer_read %x[%c0, %k], %zero {in_bounds = [true, true]} : memref<16x64xf32>, vector<8x8xf32>
    %a1 = vector.transfer_read %x[%c8, %k], %zero {in_bounds = [true, true]} : memref<16x64xf32>, vector<8x8xf32>
    %b = vector.transfer_read %w[%k, %c0], %zero {in_bounds = [true, true]} : memref<64x8xf32>, vector<8x8xf32>
    %acc0 = vector.transfer_read %tile[%c0, %c0], %zero {in_bounds = [true, true]} : memref<16x8xf32, strided<[8, 1]>>, vector<8x8xf32>
    %acc1 = vector.transfer_read %tile[%c8, %c0], %zero {in_bounds = [true, true]} : memref<16x8xf32, strided<[8, 1]>>, vector<8x8xf32>
    %sum0 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a0, %b, %acc0 : vector<8x8xf32>, vector<8x8xf32> into vector<8x8xf32>
    %sum1 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a1, %b, %acc1 : vector<8x8xf32>, vector<8x8xf32> into vector<8x8xf32>
    vector.transfer_write %sum0, %tile[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<16x8xf32, strided<[8, 1]>>
    vector.transfer_write %sum1, %tile[%c8, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<16x8xf32, strided<[8, 1]>>
    gpu.barrier
  }
  scf.for %k = %c0 to %c64 step %c8 {
    %acc = vector.transfer_read %tile[%c0, %c0], %zero {in_bounds = [true, true]} : memref<16x8xf32, strided<[8, 1]>>, vector<16x8xf32>
    %peek = vector.transfer_read %y[%other, %c0, %c0], %zero {in_bounds = [true]} : memref<2x8x8xf32>, vector<8xf32>
    %p = vector.broadcast %peek : vector<8xf32> to vector<16x8xf32>
    %sum = arith.addf %acc, %p : vector<16x8xf32>
    vector.transfer_write %sum, %tile[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32, strided<[8, 1]>>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.hoist_loop_accumulators %f : !transform.any_op
    transform.yield
  }
}

// -----

// move_reduction_loops_innermost: an argmax over the middle dimension, as
// torch-mlir writes it, gets its reduction loop last; the maps follow.
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$R:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @middle
// CHECK:         linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           %[[I0:.+]] = linalg.index 0
// CHECK:           %[[I1:.+]] = linalg.index 1
// CHECK:           %[[I2:.+]] = linalg.index 2
// CHECK:           %[[R:.+]] = affine.apply #[[$R]](%[[I0]], %[[I1]], %[[I2]])
// CHECK:           arith.index_cast %[[R]]
// A named op is generalized first; one already in order is kept.
// CHECK-LABEL: func.func @named
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.matmul
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
func.func @middle(%x: memref<8x16x32xf32>, %v: memref<8x32xf32>, %i: memref<8x32xi64>) {
  linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<8x16x32xf32>) outs(%v, %i : memref<8x32xf32>, memref<8x32xi64>) {
  ^bb0(%a: f32, %m: f32, %j: i64):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %nj = arith.select %gt, %ri, %j : i64
    linalg.yield %nm, %nj : f32, i64
  }
  return
}
func.func @named(%x: memref<8x16xf32>, %s: memref<16xf32>, %a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.reduce ins(%x : memref<8x16xf32>) outs(%s : memref<16xf32>) dimensions = [0]
    (%e: f32, %acc: f32) {
      %sum = arith.addf %e, %acc : f32
      linalg.yield %sum : f32
    }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %moved = transform.qimeng.move_reduction_loops_innermost %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
