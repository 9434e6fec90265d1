// RUN: qimeng-opt %s --qimeng-prepare | FileCheck %s
// RUN: qimeng-run --cpu --verify --trials=2 %s 2>&1 | FileCheck %s --check-prefix=HOST
// torch-mlir's f32 Linear with sizes off the matmul tiles: the weight,
// transposed, is padded to the tiles. The padding reads the weight (n, k)
// at swapped indices instead of a transposed copy of it: one pass over the
// weight, not two.
// CHECK-LABEL: func.func @linear_off_tiles
// CHECK-SAME:    %[[W:[^:]+]]: tensor<77x100xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         tensor.extract %[[W]][%{{.+}}, %{{.+}}] : tensor<77x100xf32>
// CHECK-NOT:     linalg.transpose
// HOST: @linear_off_tiles matches the reference in 2 trial(s)
func.func @linear_off_tiles(%w: tensor<77x100xf32>, %bias: tensor<77xf32>, %x: tensor<33x100xf32>) -> tensor<33x77xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<100x77xf32>
  %wt = linalg.transpose ins(%w : tensor<77x100xf32>) outs(%te : tensor<100x77xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<33x77xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x77xf32>) -> tensor<33x77xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<33x100xf32>, tensor<100x77xf32>) outs(%f : tensor<33x77xf32>) -> tensor<33x77xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%mm, %bias : tensor<33x77xf32>, tensor<77xf32>) outs(%e : tensor<33x77xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32): %s = arith.addf %v, %b : f32
      linalg.yield %s : f32 } -> tensor<33x77xf32>
  return %r : tensor<33x77xf32>
}
