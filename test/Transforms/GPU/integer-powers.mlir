// RUN: qimeng-opt %s --qimeng-integer-powers --split-input-file | FileCheck %s

// torch's x ** 2 (an i64 exponent): one multiply, no call.
// CHECK-LABEL: func.func @square
// CHECK-NOT: math.fpowi
// CHECK: %[[R:.*]] = arith.mulf %arg0, %arg0 : f32
// CHECK: return %[[R]]
func.func @square(%x: f32) -> f32 {
  %c2 = arith.constant 2 : i64
  %0 = math.fpowi %x, %c2 : f32, i64
  return %0 : f32
}

// -----

// x^13 = x * x^4 * x^8, lowest bit first (libdevice's order); a negative
// exponent ends with one reciprocal; x^0 is 1.
// CHECK-LABEL: func.func @powers
// CHECK-NOT: math.fpowi
// CHECK: %[[X2:.*]] = arith.mulf %arg0, %arg0 : f64
// CHECK: %[[X4:.*]] = arith.mulf %[[X2]], %[[X2]] : f64
// CHECK: %[[X5:.*]] = arith.mulf %arg0, %[[X4]] : f64
// CHECK: %[[X8:.*]] = arith.mulf %[[X4]], %[[X4]] : f64
// CHECK: %[[X13:.*]] = arith.mulf %[[X5]], %[[X8]] : f64
// CHECK: %[[Y2:.*]] = arith.mulf %arg0, %arg0 : f64
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[Y2]] : f64
// CHECK: return %[[X13]], %[[INV]], %{{.*}} : f64, f64, f64
func.func @powers(%x: f64) -> (f64, f64, f64) {
  %c13 = arith.constant 13 : i32
  %cm2 = arith.constant -2 : i64
  %c0 = arith.constant 0 : i64
  %0 = math.fpowi %x, %c13 : f64, i32
  %1 = math.fpowi %x, %cm2 : f64, i64
  %2 = math.fpowi %x, %c0 : f64, i64
  return %0, %1, %2 : f64, f64, f64
}

// -----

// A splat exponent on vectors (a vectorized kernel body).
// CHECK-LABEL: func.func @vector_square
// CHECK: arith.mulf %arg0, %arg0 : vector<4xf32>
// CHECK-NOT: math.fpowi
func.func @vector_square(%x: vector<4xf32>) -> vector<4xf32> {
  %c2 = arith.constant dense<2> : vector<4xi64>
  %0 = math.fpowi %x, %c2 : vector<4xf32>, vector<4xi64>
  return %0 : vector<4xf32>
}

// -----

// A variable i64 exponent: clamped to i32 with its parity kept, then the
// i32 power (what libdevice's __nv_powif takes).
// CHECK-LABEL: func.func @variable
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i64
// CHECK: %[[PAR:.*]] = arith.andi %arg1, %[[ONE]] : i64
// CHECK: arith.cmpi sgt, %arg1, %[[MAX]] : i64
// CHECK: arith.cmpi slt, %arg1, %[[MIN]] : i64
// CHECK: %[[N:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: math.fpowi %arg0, %[[N]] : f32, i32
func.func @variable(%x: f32, %n: i64) -> f32 {
  %0 = math.fpowi %x, %n : f32, i64
  return %0 : f32
}

// -----

// Inside a linalg body, as torch-mlir writes it.
// CHECK-LABEL: func.func @in_generic
// CHECK: linalg.generic
// CHECK: arith.mulf %in, %in : f32
// CHECK-NOT: math.fpowi
func.func @in_generic(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c2 = arith.constant 2 : i64
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.fpowi %in, %c2 : f32, i64
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
