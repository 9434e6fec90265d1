// RUN: qimeng-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A thread's box of a convolution: 2 filters x 2 pixels, reduced over
// 3 channels x 3 taps. One nest over the reductions carries the 4 outputs;
// each iteration reads the input pixels once for both filters and each
// weight once for both pixels (input loads at ow + kw and ow + 1 + kw), and
// nothing inside the nest writes memory.
// CHECK-LABEL: func.func @conv_box
// CHECK-SAME:    (%[[X:.+]]: memref<1x3x1x4xf32, {{.+}}>, %[[W:.+]]: memref<2x3x1x3xf32, {{.+}}>, %[[Y:.+]]: memref<1x2x1x2xf32, {{.+}}>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[Y00:.+]] = memref.load %[[Y]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]]
// CHECK:         %[[Y01:.+]] = memref.load %[[Y]][%[[C0]], %[[C0]], %[[C0]], %[[C1]]]
// CHECK:         %[[Y10:.+]] = memref.load %[[Y]][%[[C0]], %[[C1]], %[[C0]], %[[C0]]]
// CHECK:         %[[Y11:.+]] = memref.load %[[Y]][%[[C0]], %[[C1]], %[[C0]], %[[C1]]]
// CHECK:         %[[R:.+]]:4 = scf.for %[[C:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[A:.+]] = %[[Y00]], %[[B:.+]] = %[[Y01]], %[[D:.+]] = %[[Y10]], %[[E:.+]] = %[[Y11]])
// CHECK:           scf.for %[[KH:.+]] = {{.+}} iter_args
// CHECK:             scf.for %[[KW:.+]] = {{.+}} iter_args
// CHECK-NOT:           memref.store
// CHECK:               memref.load %[[X]][%[[C0]], %[[C]], %[[KH]], %[[KW]]]
// CHECK:               memref.load %[[W]][%[[C0]], %[[C]], %[[KH]], %[[KW]]]
// CHECK-NOT:           memref.store
// CHECK:               scf.yield
// CHECK:         memref.store %[[R]]#0, %[[Y]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]]
// CHECK:         memref.store %[[R]]#1, %[[Y]][%[[C0]], %[[C0]], %[[C0]], %[[C1]]]
// CHECK:         memref.store %[[R]]#2, %[[Y]][%[[C0]], %[[C1]], %[[C0]], %[[C0]]]
// CHECK:         memref.store %[[R]]#3, %[[Y]][%[[C0]], %[[C1]], %[[C0]], %[[C1]]]
// CHECK-NOT:     linalg.
func.func @conv_box(%x: memref<1x3x1x4xf32, strided<[?, ?, ?, 1], offset: ?>>,
                    %w: memref<2x3x1x3xf32, strided<[?, ?, ?, 1], offset: ?>>,
                    %y: memref<1x2x1x2xf32, strided<[?, ?, ?, 1], offset: ?>>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x3x1x4xf32, strided<[?, ?, ?, 1], offset: ?>>, memref<2x3x1x3xf32, strided<[?, ?, ?, 1], offset: ?>>)
      outs(%y : memref<1x2x1x2xf32, strided<[?, ?, ?, 1], offset: ?>>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.lower_register_blocks %f : !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.yield
  }
}

// -----

// After CSE the nest reads each input element once per iteration: the 4
// outputs of the box share 2 weight loads and 2 input loads per tap.
// CHECK-LABEL: func.func @shared_reads
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.load
// CHECK:               memref.load
// CHECK:               arith.mulf
// CHECK:               memref.load
// CHECK:               arith.mulf
// CHECK:               memref.load
// CHECK-NOT:           memref.load
// CHECK-COUNT-2:       arith.mulf
// CHECK-NOT:           memref.load
// CHECK:               scf.yield
func.func @shared_reads(%x: memref<1x3x1x4xf32>, %w: memref<2x3x1x3xf32>, %y: memref<1x2x1x2xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x3x1x4xf32>, memref<2x3x1x3xf32>) outs(%y : memref<1x2x1x2xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.lower_register_blocks %f : !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.yield
  }
}

// -----

// Left for convert_to_loops: a dynamic box, a box of 1, a box over the
// limit, an input viewing the output's buffer, and no reduction loop.
// CHECK-LABEL: func.func @not_blocks
// CHECK-COUNT-5: linalg.
func.func @not_blocks(%x: memref<1x3x1x?xf32>, %w: memref<2x3x1x3xf32>, %y: memref<1x2x1x?xf32>,
                      %a: memref<65x8xf32>, %s: memref<65xf32>, %one: memref<1x8xf32>, %o: memref<1xf32>,
                      %b: memref<4x8xf32>, %c: memref<4x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x3x1x?xf32>, memref<2x3x1x3xf32>) outs(%y : memref<1x2x1x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%one : memref<1x8xf32>) outs(%o : memref<1xf32>) {
  ^bb0(%e: f32, %acc: f32):
    %sum = arith.addf %e, %acc : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<65x8xf32>) outs(%s : memref<65xf32>) {
  ^bb0(%e: f32, %acc: f32):
    %sum = arith.addf %e, %acc : f32
    linalg.yield %sum : f32
  }
  %view = memref.subview %b[0, 0] [4, 1] [1, 1] : memref<4x8xf32> to memref<4xf32, strided<[8]>>
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%b : memref<4x8xf32>) outs(%view : memref<4xf32, strided<[8]>>) {
  ^bb0(%e: f32, %acc: f32):
    %sum = arith.addf %e, %acc : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x8xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%e: f32, %acc: f32):
    linalg.yield %e : f32
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.lower_register_blocks %f : !transform.any_op
    transform.yield
  }
}

// -----

// A generic with linalg.index in its body and a scalar input: the index of
// each box element is its constant, the scalar is used as it is.
// CHECK-LABEL: func.func @indexed
// CHECK-SAME:    (%[[A:.+]]: memref<2x5xf32>, %[[S:.+]]: f32, %[[O:.+]]: memref<2xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[R:.+]]:2 = scf.for %[[K:.+]] =
// CHECK:           arith.index_cast %[[C0]]
// CHECK:           arith.index_cast %[[C1]]
// CHECK:         memref.store %[[R]]#0, %[[O]][%[[C0]]]
// CHECK:         memref.store %[[R]]#1, %[[O]][%[[C1]]]
func.func @indexed(%a: memref<2x5xf32>, %s: f32, %o: memref<2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> ()>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %s : memref<2x5xf32>, f32) outs(%o : memref<2xf32>) {
  ^bb0(%e: f32, %scale: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %e, %fi : f32
    %m2 = arith.mulf %m, %scale : f32
    %sum = arith.addf %m2, %acc : f32
    linalg.yield %sum : f32
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.lower_register_blocks %f : !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.yield
  }
}
