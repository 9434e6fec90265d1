// RUN: qimeng-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// A dynamic trip count: the blocks are numbered along x, their count computed
// on the host, and each block splits its number into the loop indices.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:  (%[[A:.+]]: memref<?x4xf32>)
// CHECK:       %[[N:.+]] = memref.dim %[[A]], %c0
// CHECK:       %[[BLOCKS:.+]] = arith.muli %c4, %[[N]]
// CHECK:       gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]], %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}})
// CHECK:         %[[IJ:.+]]:2 = affine.delinearize_index %[[B]] into (%[[N]], 4)
// CHECK:         memref.store %{{.+}}, %[[A]][%[[IJ]]#0, %[[IJ]]#1]
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @dynamic(%a: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %n = memref.dim %a, %c0 : memref<?x4xf32>
  scf.forall (%i, %j) in (%n, 4) {
    memref.store %f, %a[%i, %j] : memref<?x4xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Static and within the limits: the grid has the loop's shape.
// CHECK-LABEL: func.func @static
// CHECK:       gpu.launch blocks(%[[BX:.+]], %[[BY:.+]], %{{.+}}) in (%{{.+}} = %c4{{.*}}, %{{.+}} = %c8{{.*}}, %{{.+}} = %c1{{.*}})
// CHECK-NOT:     affine.delinearize_index
// CHECK:         memref.store %{{.+}}, %{{.+}}[%[[BY]], %[[BX]]]
func.func @static(%a: memref<8x4xf32>) {
  %f = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (8, 4) {
    memref.store %f, %a[%i, %j] : memref<8x4xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Static but over the 65535 blocks that y allows: numbered along x.
// CHECK-LABEL: func.func @tall
// CHECK:       gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c200000{{.*}}, %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}})
// CHECK:         affine.delinearize_index %[[B]] into (100000, 2)
func.func @tall(%a: memref<100000x2xf32>) {
  %f = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (100000, 2) {
    memref.store %f, %a[%i, %j] : memref<100000x2xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @threads(%a: memref<8xf32>) {
  %f = arith.constant 1.0 : f32
  scf.forall (%i) in (8) {
    memref.store %f, %a[%i] : memref<8xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects each loop mapped to a distinct #gpu.block<x|y|z> (or each to a distinct #gpu.block<linear_dim_N>), got #gpu.thread<x>}}
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @strided(%a: memref<8xf32>) {
  %f = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.forall (%i) = (%c0) to (%c8) step (%c2) {
    memref.store %f, %a[%i] : memref<8xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects a normalized forall (lower bounds 0, steps 1)}}
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Four loops on linear block ids: numbered along x, linear_dim_0 fastest.
// CHECK-LABEL: func.func @linear
// CHECK:       %[[N:.+]] = memref.dim
// CHECK:       %[[BLOCKS:.+]] = arith.muli %c{{[0-9]+}}, %[[N]]
// CHECK:       gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]], %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}})
// CHECK:         %[[I:.+]]:4 = affine.delinearize_index %[[B]] into (%[[N]], 2, 3, 4)
// CHECK:         memref.store %{{.+}}, %{{.+}}[%[[I]]#0, %[[I]]#1, %[[I]]#2, %[[I]]#3]
func.func @linear(%a: memref<?x2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %n = memref.dim %a, %c0 : memref<?x2x3x4xf32>
  scf.forall (%i, %j, %k, %l) in (%n, 2, 3, 4) {
    memref.store %f, %a[%i, %j, %k, %l] : memref<?x2x3x4xf32>
  } {mapping = [#gpu.block<linear_dim_3>, #gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @too_many_blocks(%a: memref<65536x65536xf32>) {
  %f = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (65536, 65536) {
    memref.store %f, %a[%i, %j] : memref<65536x65536xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{needs 4294967296 blocks; at most 2147483647 can be launched}}
    %launch = transform.qimeng.map_forall_to_grid %forall : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
