// RUN: qimeng-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// A bf16 contraction of shared tiles (its buffers captured from outside the
// launch) becomes bf16 ldmatrix loads and a bf16 mma.sync, as f16 would.
// CHECK-LABEL: func.func @bf16_only
// CHECK-NOT:     {{[^b]}}f16
// CHECK:         nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<16x16xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK:         nvgpu.ldmatrix %{{.+}} {numTiles = 2 : i32, transpose = true} : memref<16x8xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK:         nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:     vector.contract
// CHECK-NOT:     {{[^b]}}f16
func.func @bf16_only(%a: memref<16x16xbf16, #gpu.address_space<workgroup>>,
                     %b: memref<16x8xbf16, #gpu.address_space<workgroup>>,
                     %c: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %pb = arith.constant 0.0 : bf16
    %pf = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %b[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x8xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %vc = vector.transfer_read %c[%c0, %c0], %pf {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}

// -----

// A launch with a bf16 contraction is converted as if it were f16 and
// retyped back: one that also defines f16 values cannot be retyped back
// unambiguously, and is refused.
func.func @bf16_beside_f16(%a: memref<16x16xbf16, #gpu.address_space<workgroup>>,
                           %b: memref<16x8xbf16, #gpu.address_space<workgroup>>,
                           %c: memref<16x8xf32>, %h: memref<16x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{has bf16 contractions and f16 values; mma.sync takes the bf16 ones only in kernels without f16}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %pb = arith.constant 0.0 : bf16
    %pf = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %b[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x8xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %vc = vector.transfer_read %c[%c0, %c0], %pf {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
    %t = arith.truncf %d : vector<16x8xf32> to vector<16x8xf16>
    vector.transfer_write %t, %h[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf16>, memref<16x8xf16>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the contraction of '' as tensor-core instructions}}
    transform.qimeng.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing folds while the launch is retyped: the extension of a bf16 1.0
// folds afterwards, to 1.0 (read as f16 bits it would be 1.875), and the
// constants stay bf16 wherever the clean-up moves them.
// CHECK-LABEL: func.func @folds_after
// CHECK-NOT:     {{[^b]}}f16
// CHECK:         %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT:     {{[^b]}}f16
// CHECK:         nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:         memref.store %[[ONE]]
// CHECK-NOT:     {{[^b]}}f16
func.func @folds_after(%a: memref<16x16xbf16, #gpu.address_space<workgroup>>,
                       %b: memref<16x8xbf16, #gpu.address_space<workgroup>>,
                       %c: memref<16x8xf32>, %out: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pb = arith.constant 0.0 : bf16
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %one = arith.constant 1.0 : bf16
    %onef = arith.extf %one : bf16 to f32
    %pf = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %b[%c0, %c0], %pb {in_bounds = [true, true]} : memref<16x8xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %vc = vector.transfer_read %c[%c0, %c0], %pf {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    memref.store %onef, %out[%c0, %c0] : memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}
