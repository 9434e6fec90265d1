// RUN: qimeng-opt %s --qimeng-prepare -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: for f in column row_linear batched_column returned; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// RUN: qimeng-opt %s --llm-plan --lower-to-nvvm -o %t.gpu.mlir
// RUN: grep -q gpu.binary %t.gpu.mlir
// Matmuls with one column or one row are matrix-vector products: their unit
// M or N loop is dropped (no padding to 64 x 64 tiles, no padded copy of
// the vector); a unit batch loop is kept. The host runs match the matmuls.
// HOST: matches the reference in 2 trial(s)

// torch.matmul(A, B) with B of (K, 1).
// CHECK-LABEL: func.func @column
// CHECK-NOT:   tensor.pad
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<300x1037xf32>, tensor<1037xf32>) outs(%{{.*}} : tensor<300xf32>)
// CHECK-NOT:   linalg.matmul
func.func @column(%a: tensor<300x1037xf32>, %b: tensor<1037x1xf32>, %c: tensor<300x1xf32>) -> tensor<300x1xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<300x1037xf32>, tensor<1037x1xf32>) outs(%c : tensor<300x1xf32>) -> tensor<300x1xf32>
  return %0 : tensor<300x1xf32>
}

// A Linear layer on one row: x (1, K) times W stored (N, K).
// CHECK-LABEL: func.func @row_linear
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<515xf32>, tensor<77x515xf32>) outs(%{{.*}} : tensor<77xf32>)
#xa = affine_map<(m, n, k) -> (m, k)>
#wt = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @row_linear(%x: tensor<1x515xf32>, %w: tensor<77x515xf32>, %c: tensor<1x77xf32>) -> tensor<1x77xf32> {
  %0 = linalg.generic {indexing_maps = [#xa, #wt, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x515xf32>, tensor<77x515xf32>) outs(%c : tensor<1x77xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x77xf32>
  return %0 : tensor<1x77xf32>
}

// Batched, one column each: the batch loop stays.
// CHECK-LABEL: func.func @batched_column
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<3x61x129xf32>, tensor<3x129xf32>) outs(%{{.*}} : tensor<3x61xf32>)
func.func @batched_column(%a: tensor<3x61x129xf32>, %b: tensor<3x129x1xf32>, %c: tensor<3x61x1xf32>) -> tensor<3x61x1xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<3x61x129xf32>, tensor<3x129x1xf32>) outs(%c : tensor<3x61x1xf32>) -> tensor<3x61x1xf32>
  return %0 : tensor<3x61x1xf32>
}

// A fresh, returned result from a zero fill; a batch of one is a batch loop
// (kept), and its unit N dropped.
// CHECK-LABEL: func.func @returned
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x64x97xf32>, tensor<1x97xf32>) outs(%{{.*}} : tensor<1x64xf32>)
func.func @returned(%a: tensor<1x64x97xf32>, %b: tensor<1x97x1xf32>) -> tensor<1x64x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x1xf32>) -> tensor<1x64x1xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x64x97xf32>, tensor<1x97x1xf32>) outs(%c : tensor<1x64x1xf32>) -> tensor<1x64x1xf32>
  return %0 : tensor<1x64x1xf32>
}
