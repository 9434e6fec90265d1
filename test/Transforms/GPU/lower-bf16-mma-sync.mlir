// RUN: qimeng-opt %s --qimeng-lower-bf16-mma-sync --split-input-file --verify-diagnostics | FileCheck %s

// m16n8k16: each row of A (4) and B (2) as one 32-bit register, the four
// accumulators in row order, the result gathered back.
// CHECK-LABEL: func.func @k16
// CHECK-SAME:    (%[[A:.+]]: vector<4x2xbf16>, %[[B:.+]]: vector<2x2xbf16>, %[[C:.+]]: vector<2x2xf32>)
// CHECK:         %[[A0:.+]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK:         %[[A0I:.+]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[R0:.+]] = vector.extract %[[A0I]][0] : i32 from vector<1xi32>
// CHECK-COUNT-3: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK-COUNT-2: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[C00:.+]] = vector.extract %[[C]][0, 0]
// CHECK:         %[[C01:.+]] = vector.extract %[[C]][0, 1]
// CHECK:         %[[C10:.+]] = vector.extract %[[C]][1, 0]
// CHECK:         %[[C11:.+]] = vector.extract %[[C]][1, 1]
// CHECK:         %[[D:.+]] = nvvm.mma.sync A[%[[R0]], {{.+}}, {{.+}}, {{.+}}] B[{{.+}}, {{.+}}] C[%[[C00]], %[[C01]], %[[C10]], %[[C11]]]
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         %[[D0:.+]] = llvm.extractvalue %[[D]][0]
// CHECK:         %[[D1:.+]] = llvm.extractvalue %[[D]][1]
// CHECK:         %[[D2:.+]] = llvm.extractvalue %[[D]][2]
// CHECK:         %[[D3:.+]] = llvm.extractvalue %[[D]][3]
// CHECK:         %[[R:.+]] = vector.from_elements %[[D0]], %[[D1]], %[[D2]], %[[D3]] : vector<2x2xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     nvgpu.mma.sync
func.func @k16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// m16n8k8: two registers of A, one of B; f16 operands are left to upstream.
// CHECK-LABEL: func.func @k8
// CHECK:         nvvm.mma.sync A[{{[^,]+}}, {{[^,]+}}] B[{{[^,]+}}] C[{{.+}}]
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 8>
// CHECK:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>
func.func @k8(%a: vector<2x2xbf16>, %b: vector<1x2xbf16>, %c: vector<2x2xf32>,
              %fa: vector<4x2xf16>, %fb: vector<2x2xf16>) -> (vector<2x2xf32>, vector<2x2xf32>) {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xbf16>, vector<1x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %e = nvgpu.mma.sync (%fa, %fb, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d, %e : vector<2x2xf32>, vector<2x2xf32>
}

// -----

// bf16 accumulators: no such instruction.
func.func @bf16_acc(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) -> vector<2x2xbf16> {
  // expected-error @+1 {{has bf16 operands; tensor cores take them as 2-element rows of bf16 and both operands bf16 with f32 accumulators}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
  return %d : vector<2x2xbf16>
}

// -----

// One op that has no instruction fails the pass before any op is rewritten.
func.func @one_bad(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>, %h: vector<2x2xbf16>) -> (vector<2x2xf32>, vector<2x2xbf16>) {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  // expected-error @+1 {{has bf16 operands; tensor cores take them as 2-element rows of bf16 and both operands bf16 with f32 accumulators}}
  %e = nvgpu.mma.sync (%a, %b, %h) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
  return %d, %e : vector<2x2xf32>, vector<2x2xbf16>
}
