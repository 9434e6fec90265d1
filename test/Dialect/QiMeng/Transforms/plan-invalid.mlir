// What the built-in planner does not support gets a diagnostic naming the op.
// RUN: qimeng-opt %s --split-input-file --qimeng-plan --verify-diagnostics --allow-unregistered-dialect
// RUN: not qimeng-opt %s --split-input-file --qimeng-plan=target=sm_75 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: unknown target 'sm_75'; expected sm_80 or sm_90

func.func @full_reduction(%x: memref<1024xf32>, %y: memref<f32>) {
  // expected-error @+1 {{has no parallel loop to map to GPU threads; full reductions are not supported yet}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<1024xf32>) outs(%y : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @loops(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op is not supported by the built-in planner: it plans linalg operations}}
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %x[%i] : memref<8xf32>
  }
  return
}

// -----

func.func @empty_loop(%A: memref<0x16xf32>, %B: memref<16x8xf32>, %C: memref<0x8xf32>) {
  // expected-error @+1 {{has an empty loop 0; nothing to compute}}
  linalg.matmul ins(%A, %B : memref<0x16xf32>, memref<16x8xf32>) outs(%C : memref<0x8xf32>)
  return
}

// -----

func.func @huge(%x: memref<4x4611686018427387905xf32>, %y: memref<4x4611686018427387905xf32>) {
  // expected-error @+1 {{loop 1 has 4611686018427387905 iterations; at most 2147483648 are supported}}
  linalg.copy ins(%x : memref<4x4611686018427387905xf32>) outs(%y : memref<4x4611686018427387905xf32>)
  return
}

// -----

func.func @no_outs(%x: tensor<8xf32>) {
  // expected-error @+1 {{has no output operand to plan for}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) {
  ^bb0(%a: f32):
    linalg.yield
  }
  return
}

// -----

func.func @unregistered() {
  // expected-error @+1 {{'foo.bar' op is not supported by the built-in planner: it plans linalg operations}}
  "foo.bar"() : () -> ()
  return
}

// -----

// expected-error @+1 {{'func.func' op takes a value of type 'memref<16xcomplex<f32>>', whose element type QiMeng does not support (it computes with f16, bf16, f32, f64, i1, i8, i16, i32, i64 and index)}}
func.func @complex(%x: memref<16xcomplex<f32>>, %y: memref<16xcomplex<f32>>) {
  linalg.copy ins(%x : memref<16xcomplex<f32>>) outs(%y : memref<16xcomplex<f32>>)
  return
}

// -----

func.func @float8_inside(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{'memref.alloc' op has a result of element type 'f8E4M3FN', which QiMeng does not support}}
  %t = memref.alloc() : memref<16xf8E4M3FN>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%t : memref<16xf8E4M3FN>) {
  ^bb0(%a: f32, %b: f8E4M3FN):
    %r = arith.truncf %a : f32 to f8E4M3FN
    linalg.yield %r : f8E4M3FN
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op takes a value of type 'tensor<16xvector<4xf32>>', whose element type QiMeng does not support}}
func.func @vector_elements(%x: tensor<16xvector<4xf32>>) -> tensor<16xvector<4xf32>> {
  return %x : tensor<16xvector<4xf32>>
}
