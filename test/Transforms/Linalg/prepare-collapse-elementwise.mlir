// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare --qimeng-plan | FileCheck %s --check-prefix=PLAN
// RUN: qimeng-run --cpu --verify --trials=2 --entry=cast_odd_rows %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=silu_dynamic_batch --shape=0=3x509x7x16 %s 2>&1 | FileCheck %s --check-prefix=HOST
// A stand-alone elementwise op whose last loop alone gives a warp no
// 128-bit vectors (too short, or no multiple of the vector) runs over its
// trailing static loops collapsed into one.
// HOST: matches the reference in 2 trial(s)

// 1023 is no multiple of 4: the whole 3000 x 1023 is one loop of 3069000,
// read in 128-bit vectors.
// CHECK-LABEL: func.func @cast_odd_rows
// CHECK:         tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<3000x1023xf32> into tensor<3069000xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}} : tensor<3069000xf32>) outs(%{{.+}} : tensor<3069000xbf16>)
// CHECK:         tensor.expand_shape
// PLAN-LABEL:  qimeng.plan @cast_odd_rows
// PLAN:          qimeng.vectorize "elementwise0" width 4
func.func @cast_odd_rows(%x: tensor<3000x1023xf32>) -> tensor<3000x1023xbf16> {
  %e = tensor.empty() : tensor<3000x1023xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<3000x1023xf32>) outs(%e : tensor<3000x1023xbf16>) {
    ^bb0(%v: f32, %o: bf16): %t = arith.truncf %v : f32 to bf16
      linalg.yield %t : bf16 } -> tensor<3000x1023xbf16>
  return %r : tensor<3000x1023xbf16>
}

// -----

// A dynamic batch stays a loop of its own; its 509 x 7 x 16 become rows of
// 57008.
// CHECK-LABEL: func.func @silu_dynamic_batch
// CHECK:         tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : tensor<?x509x7x16xf32> into tensor<?x57008xf32>
func.func @silu_dynamic_batch(%x: tensor<?x509x7x16xf32>) -> tensor<?x509x7x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x509x7x16xf32>
  %e = tensor.empty(%n) : tensor<?x509x7x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x : tensor<?x509x7x16xf32>) outs(%e : tensor<?x509x7x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.negf %v : f32
      %ex = math.exp %m : f32
      %d = arith.addf %ex, %one : f32
      %s = arith.divf %v, %d : f32
      linalg.yield %s : f32 } -> tensor<?x509x7x16xf32>
  return %r : tensor<?x509x7x16xf32>
}

// -----

// Rows of 256 already give a warp its vectors; a broadcast bias keeps the
// loops apart too (its operand has only the last one).
// CHECK-LABEL: func.func @wide_rows_and_bias
// CHECK-NOT:     tensor.collapse_shape
func.func @wide_rows_and_bias(%x: tensor<64x256xf32>, %y: tensor<8x6xf32>, %b: tensor<6xf32>) -> (tensor<64x256xf32>, tensor<8x6xf32>) {
  %e = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
    ^bb0(%v: f32, %o: f32): %t = math.tanh %v : f32
      linalg.yield %t : f32 } -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%y, %b : tensor<8x6xf32>, tensor<6xf32>) outs(%e2 : tensor<8x6xf32>) {
    ^bb0(%v: f32, %w: f32, %o: f32): %t = arith.addf %v, %w : f32
      linalg.yield %t : f32 } -> tensor<8x6xf32>
  return %r, %s : tensor<64x256xf32>, tensor<8x6xf32>
}

// -----

// A named elementwise op alone (no neighbour to fuse with) is generalized
// when it collapses.
// CHECK-LABEL: func.func @named_exp
// CHECK:         linalg.generic {{.*}} ins(%{{.+}} : tensor<21483xf32>)
// CHECK:           math.exp
func.func @named_exp(%x: tensor<7x3069xf32>) -> tensor<7x3069xf32> {
  %e = tensor.empty() : tensor<7x3069xf32>
  %r = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%x : tensor<7x3069xf32>) outs(%e : tensor<7x3069xf32>) -> tensor<7x3069xf32>
  return %r : tensor<7x3069xf32>
}

// -----

// The cast of an aggregate's result (a bf16 softmax computed in f32) is no
// stand-alone op: it fuses with the softmax's row kernel instead.
// CHECK-LABEL: func.func @softmax_then_cast
// CHECK-NOT:     tensor.collapse_shape
func.func @softmax_then_cast(%x: tensor<13x1x5xf32>) -> tensor<13x1x5xbf16> {
  %e = tensor.empty() : tensor<13x1x5xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<13x1x5xf32>) outs(%e : tensor<13x1x5xf32>) -> tensor<13x1x5xf32>
  %eb = tensor.empty() : tensor<13x1x5xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%s : tensor<13x1x5xf32>) outs(%eb : tensor<13x1x5xbf16>) {
    ^bb0(%v: f32, %o: bf16): %t = arith.truncf %v : f32 to bf16
      linalg.yield %t : bf16 } -> tensor<13x1x5xbf16>
  return %r : tensor<13x1x5xbf16>
}
