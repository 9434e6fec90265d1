// RUN: qimeng-opt %s --qimeng-prepare | FileCheck %s
// RUN: qimeng-run --cpu --verify --trials=2 --entry=plain_f32 %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=batched_i32 %s 2>&1 | FileCheck %s --check-prefix=HOST
// Generic (batched) matmuls with the named ops' maps and body become the
// named ops (the micro-coder vectorizes those as vector.contract: FMAs);
// any other body or map stays a generic.
// HOST: matches the reference in 2 trial(s)

// CHECK-LABEL: func.func @plain_f32
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<33x17xf32>, tensor<17x5xf32>) outs(%{{.*}} : tensor<33x5xf32>)
// CHECK-NOT:     linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @plain_f32(%A: tensor<33x17xf32>, %B: tensor<17x5xf32>) -> tensor<33x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x5xf32>) -> tensor<33x5xf32>
  // The product's factors and the sum's terms in the other order.
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<33x17xf32>, tensor<17x5xf32>) outs(%f : tensor<33x5xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %p, %z : f32
    linalg.yield %s : f32
  } -> tensor<33x5xf32>
  return %0 : tensor<33x5xf32>
}


// CHECK-LABEL: func.func @batched_i32
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x8x16xi32>, tensor<3x16x4xi32>) outs(%{{.*}} : tensor<3x8x4xi32>)
#xa = affine_map<(b, m, n, k) -> (b, m, k)>
#xb = affine_map<(b, m, n, k) -> (b, k, n)>
#xc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_i32(%A: tensor<3x8x16xi32>, %B: tensor<3x16x4xi32>, %C: tensor<3x8x4xi32>) -> tensor<3x8x4xi32> {
  %0 = linalg.generic {indexing_maps = [#xa, #xb, #xc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<3x8x16xi32>, tensor<3x16x4xi32>) outs(%C : tensor<3x8x4xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  } -> tensor<3x8x4xi32>
  return %0 : tensor<3x8x4xi32>
}


// Not the named ops' computations: fast-math flags, a widening body, a
// product of the accumulator, a B every batch shares. They stay generics.
// CHECK-LABEL: func.func @others
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.batch_matmul
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.batch_matmul
#ya = affine_map<(m, n, k) -> (m, k)>
#yb = affine_map<(m, n, k) -> (k, n)>
#yc = affine_map<(m, n, k) -> (m, n)>
#yba = affine_map<(b, m, n, k) -> (b, m, k)>
#ybb = affine_map<(b, m, n, k) -> (k, n)>
#ybc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @others(%A: tensor<8x16xf32>, %B: tensor<16x4xf32>, %C: tensor<8x4xf32>,
                  %H: tensor<8x16xf16>, %G: tensor<16x4xf16>,
                  %BA: tensor<2x8x16xf32>, %BC: tensor<2x8x4xf32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<2x8x4xf32>) {
  %0 = linalg.generic {indexing_maps = [#ya, #yb, #yc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<8x16xf32>, tensor<16x4xf32>) outs(%C : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y fastmath<fast> : f32
    %s = arith.addf %z, %p fastmath<fast> : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %1 = linalg.generic {indexing_maps = [#ya, #yb, #yc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%H, %G : tensor<8x16xf16>, tensor<16x4xf16>) outs(%C : tensor<8x4xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %2 = linalg.generic {indexing_maps = [#ya, #yb, #yc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<8x16xf32>, tensor<16x4xf32>) outs(%C : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %z : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %3 = linalg.generic {indexing_maps = [#yba, #ybb, #ybc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%BA, %B : tensor<2x8x16xf32>, tensor<16x4xf32>) outs(%BC : tensor<2x8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x8x4xf32>
  return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<2x8x4xf32>
}
