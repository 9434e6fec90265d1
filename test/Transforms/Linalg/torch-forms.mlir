// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// The forms torch-mlir writes that qimeng-prepare brings into the planner's
// (lib/Transforms/Linalg/ConstantInputs.cpp, DeadResults.cpp, KernelAsserts.cpp,
// ScalarOutputs.cpp, SharedInits.cpp).

// max(dim) as torch-mlir lowers it (softmax's row maximum): one reduction
// yields the maximum and its index. The index is dead: its output, its
// fill and the body computing it are dropped, leaving a plain max.
// CHECK-LABEL: func.func @row_max
// CHECK-NOT:     i64
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %[[OUT:.+]]: f32):
// CHECK-NEXT:      %[[M:.+]] = arith.maximumf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         return %[[R]]
func.func @row_max(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<4xi64>) -> tensor<4xi64>
  %e1 = tensor.empty() : tensor<4xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.maximumf %in, %out : f32
    %13 = arith.cmpf ogt, %in, %out : f32
    %14 = arith.select %13, %11, %out_1 : i64
    linalg.yield %12, %14 : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0 : tensor<4xf32>
}

// -----

// An argmax (both results used) keeps both outputs.
// CHECK-LABEL: func.func @row_max_and_index
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xi64>)
func.func @row_max_and_index(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<4xi64>) -> tensor<4xi64>
  %e1 = tensor.empty() : tensor<4xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.maximumf %in, %out : f32
    %13 = arith.cmpf ogt, %in, %out : f32
    %14 = arith.select %13, %11, %out_1 : i64
    linalg.yield %12, %14 : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// A loss: a sum of everything into a 0-d tensor, then a division on 0-d
// tensors. Each op gets a leading parallel loop of one iteration over its
// outputs expanded to one element, so the plans have a loop to map (the
// index the body reads is shifted by one loop).
// CHECK-LABEL: func.func @mean
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<f32>
// CHECK:         %[[EX:.+]] = tensor.expand_shape %[[E]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         %[[FILL:.+]] = linalg.generic {{.*}} iterator_types = ["parallel"]} {{.*}} outs(%[[EX]] : tensor<1xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.+}} : tensor<16x32xf32>) outs(%[[FILL]] : tensor<1xf32>)
// CHECK:           linalg.index 2 : index
// CHECK:         %[[S:.+]] = tensor.collapse_shape %[[SUM]] [] : tensor<1xf32> into tensor<f32>
// CHECK:         %[[DIV:.+]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[S]] : tensor<f32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[DIV]] [] : tensor<1xf32> into tensor<f32>
// CHECK:         return %[[R]] : tensor<f32>
func.func @mean(%x: tensor<16x32xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<16x32xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %t = arith.mulf %in, %jf : f32
    %a = arith.addf %t, %out : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %d = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%s : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<f32>
  return %d : tensor<f32>
}

// -----

// Two reductions that CSE left one fill: each gets its own.
// CHECK-LABEL: func.func @two_sums
// CHECK:         %[[F0:.+]] = linalg.fill
// CHECK:         %[[F1:.+]] = linalg.fill
// CHECK-DAG:     linalg.generic {{.*}} ins(%arg0 : tensor<8x64xf32>) outs(%[[F1]] : tensor<8xf32>)
// CHECK-DAG:     linalg.generic {{.*}} ins(%arg1 : tensor<8x64xf32>) outs(%[[F0]] : tensor<8xf32>)
func.func @two_sums(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// Batch norm's guard inside the body is dropped; a host assertion stays.
// CHECK-LABEL: func.func @guarded
// CHECK:         cf.assert %{{.+}}, "shapes match"
// CHECK:         linalg.generic
// CHECK-NOT:       cf.assert
// CHECK:           math.sqrt
// CHECK-NOT:       cf.assert
// CHECK:           linalg.yield
func.func @guarded(%x: tensor<8x4xf32>, %var: tensor<4xf32>, %ok: i1) -> tensor<8x4xf32> {
  cf.assert %ok, "shapes match"
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %var : tensor<8x4xf32>, tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %s = math.sqrt %v : f32
    %nz = arith.cmpf one, %s, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %inv = arith.divf %one, %s : f32
    %y = arith.mulf %in, %inv : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// where(x > 0, x, 0.0) as torch-mlir writes it: the 0-d zero is a constant
// tensor input, folded into the body as a scalar (a kernel would otherwise
// read it from a global in host memory).
// CHECK-LABEL: func.func @relu_where
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<{{8x4|32}}xf32>) outs
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.select %{{.+}}, %[[IN]], %[[ZERO]] : f32
func.func @relu_where(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %zero : tensor<8x4xf32>, tensor<f32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %z: f32, %out: f32):
    %p = arith.cmpf ogt, %in, %c0 : f32
    %s = arith.select %p, %in, %z : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
