// RUN: qimeng-opt %s --split-input-file --qimeng-record-equal-dims | FileCheck %s

// An output argument's batch is its input's (one loop indexes both); the
// static dimensions are left out.
// CHECK-LABEL: func.func @outarg
// CHECK-SAME:  qimeng.equal_dims = array<i64: 0, 0, 1, 0>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @outarg(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x8xf32>) outs(%y : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Through a result built from tensor.dim and a matmul's loops: A's rows are
// C's rows, A's columns B's rows, B's columns C's columns.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  qimeng.equal_dims = array<i64: 0, 1, 1, 0, 0, 0, 2, 0, 1, 1, 2, 1>
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Nothing ties the two: no attribute.
// CHECK-LABEL: func.func @unrelated
// CHECK-NOT:   qimeng.equal_dims
func.func @unrelated(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// Through linalg.softmax and the unpadded dimension of a tensor.pad.
// CHECK-LABEL: func.func @softmax_pad
// CHECK-SAME:  qimeng.equal_dims = array<i64: 0, 0, 1, 0>
func.func @softmax_pad(%x: tensor<?x8xf32>, %y: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x8xf32> to tensor<?x10xf32>
  %0 = linalg.softmax dimension(1) ins(%p : tensor<?x10xf32>) outs(%y : tensor<?x10xf32>) -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
