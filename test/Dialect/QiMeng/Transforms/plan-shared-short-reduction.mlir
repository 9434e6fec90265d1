// RUN: qimeng-opt %s --qimeng-prepare --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --llm-plan --qimeng-realize-plans -o /dev/null
// The triangular reduction of a blocked scan: out[r, b, c] = sum over k of
// where(k <= c, x[r, b, k], 0), 32 terms. The outputs along c all read the
// same row of x (only the small index tables depend on c), so a thread per
// output takes it, the warp's lanes sharing each load; a warp per output
// (the plan of longer rows) would load and shuffle for every output, and
// no row group takes it for its lanes either.
// CHECK-LABEL: qimeng.plan @triangular
// CHECK-NOT:     to warp
// CHECK:         qimeng.tile "reduction0" [1, 8, 32, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 1, 1, 0] to thread
// CHECK-NOT:     to warp
// A row sum of the same length reads a row per output: a warp each.
// CHECK-LABEL: qimeng.plan @row_sum
// CHECK:         qimeng.tile "reduction0" [1, 8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 1, 0] to warp
// The same triangle with the row's data also indexed by c (each output its
// own row): nothing is shared, a warp each.
// CHECK-LABEL: qimeng.plan @triangular_own_rows
// CHECK:         qimeng.tile "reduction0" [1, 1, 8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 0, 1, 0] to warp
#k = affine_map<(d0, d1, d2, d3) -> (0, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d2, 0)>
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#xc = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowout = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @triangular(%ks: tensor<1x32xi64>, %cs: tensor<32x1xi64>, %x: tensor<64x128x1x32xf32>) -> tensor<64x128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128x32xf32>) -> tensor<64x128x32xf32>
  %r = linalg.generic {indexing_maps = [#k, #c, #x, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ks, %cs, %x : tensor<1x32xi64>, tensor<32x1xi64>, tensor<64x128x1x32xf32>) outs(%f : tensor<64x128x32xf32>) {
  ^bb0(%k: i64, %c: i64, %v: f32, %acc: f32):
    %le = arith.cmpi sle, %k, %c : i64
    %t = arith.select %le, %v, %zero : f32
    %s = arith.addf %t, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  return %r : tensor<64x128x32xf32>
}
func.func @row_sum(%x: tensor<64x128x32xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#row, #rowout], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<64x128x32xf32>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
func.func @triangular_own_rows(%ks: tensor<1x32xi64>, %cs: tensor<32x1xi64>, %x: tensor<64x128x32x32xf32>) -> tensor<64x128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128x32xf32>) -> tensor<64x128x32xf32>
  %r = linalg.generic {indexing_maps = [#k, #c, #xc, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ks, %cs, %x : tensor<1x32xi64>, tensor<32x1xi64>, tensor<64x128x32x32xf32>) outs(%f : tensor<64x128x32xf32>) {
  ^bb0(%k: i64, %c: i64, %v: f32, %acc: f32):
    %le = arith.cmpi sle, %k, %c : i64
    %t = arith.select %le, %v, %zero : f32
    %s = arith.addf %t, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  return %r : tensor<64x128x32xf32>
}
