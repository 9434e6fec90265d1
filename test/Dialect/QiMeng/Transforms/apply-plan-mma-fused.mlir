// A constant fill of a tensor-core matmul's output, fused into it: the
// accumulators start from the constant in registers, the fill is gone (no
// kernel of its own, no read of the output before the K loop).
// RUN: qimeng-opt %s --split-input-file --qimeng-apply-plan --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @mm_fill
// CHECK-NOT:   linalg.fill
// CHECK:       %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
// CHECK:       gpu.launch
// CHECK-NOT:     vector.load %{{.*}} : memref<256x512xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]],
// CHECK-COUNT-16:  nvgpu.mma.sync
// CHECK:           scf.yield
// CHECK:         vector.store %{{.*}}, %{{.*}} : memref<256x512xf32>, vector<2xf32>
// CHECK-NOT:   gpu.launch
func.func @mm_fill(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
qimeng.plan @mm_fill provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.pipeline "mm" stages 2
  qimeng.fuse "mm" producer "fill"
}

// -----

// The output is read between the fill and the matmul: the fill cannot be
// folded into the accumulators.
func.func @used_between(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>, %D: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{cannot start the accumulators of a tensor-core kernel: its buffer is used before the kernel's launch}}
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<256x512xf32>)
  memref.copy %C, %D : memref<256x512xf32> to memref<256x512xf32>
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
// expected-error @+1 {{could not be realized by the built-in micro-coder: could not start the accumulators of 'mm' from the fill}}
qimeng.plan @used_between provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.fuse "mm" producer "fill"
}

// -----

// The bias and ReLU run in the epilogue: the accumulators are stored once,
// to the consumer's output, with the bias read along the columns; the
// matmul's result is a temporary and is not stored at all.
// CHECK-LABEL: func.func @mm_bias_relu
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   memref.alloc
// CHECK:       gpu.launch
// CHECK:         scf.for
// CHECK-COUNT-16:  nvgpu.mma.sync
// CHECK:           scf.yield
// CHECK:         %[[BIAS:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<512xf32>, vector<2xf32>
// CHECK:         %[[SUM:.*]] = arith.addf %{{.*}}, %[[BIAS]] : vector<2xf32>
// CHECK:         %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<2xf32>
// CHECK:         vector.store %[[RELU]], %[[D:.*]][%{{.*}}, %{{.*}}] : memref<256x512xf32>, vector<2xf32>
// CHECK-NOT:     vector.store %{{.*}}, %[[C:alloc.*]][
// CHECK-NOT:   gpu.launch
func.func @mm_bias_relu(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %bias: memref<512xf32>, %D: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x512xf32>
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {qimeng.tag = "relu",
                  indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x512xf32>, memref<512xf32>) outs(%D : memref<256x512xf32>) {
  ^bb0(%c: f32, %b: f32, %d: f32):
    %s = arith.addf %c, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %C : memref<256x512xf32>
  return
}
qimeng.plan @mm_bias_relu provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.pipeline "mm" stages 2
  qimeng.fuse "mm" producer "fill"
  qimeng.fuse "mm" consumer "relu"
}

// -----

// The caller sees the matmul's own output: it is still stored, and the
// consumer's (an f16 rounding) beside it.
// CHECK-LABEL: func.func @mm_round_kept
// CHECK:       gpu.launch
// CHECK:         scf.for
// CHECK:           scf.yield
// CHECK:         vector.store %{{.*}}, %{{.*}} : memref<256x512xf32>, vector<2xf32>
// CHECK:         arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK:         vector.store %{{.*}}, %{{.*}} : memref<256x512xf16>, vector<2xf16>
func.func @mm_round_kept(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>, %D: memref<256x512xf16>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {qimeng.tag = "round",
                  indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x512xf32>) outs(%D : memref<256x512xf16>) {
  ^bb0(%c: f32, %d: f16):
    %r = arith.truncf %c : f32 to f16
    linalg.yield %r : f16
  }
  return
}
qimeng.plan @mm_round_kept provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.fuse "mm" consumer "round"
}

// -----

// The consumer updates the result in place (`y += b`, as KernelBench's
// Linear + bias writes it): the accumulators plus the bias are stored once,
// into the same buffer.
// CHECK-LABEL: func.func @mm_bias_in_place
// CHECK:       gpu.launch
// CHECK:         scf.for
// CHECK:           scf.yield
// CHECK:         %[[BIAS:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<512xf32>, vector<2xf32>
// CHECK:         %[[SUM:.*]] = arith.addf %{{.*}}, %[[BIAS]] : vector<2xf32>
// CHECK-NEXT:    vector.store %[[SUM]], %{{.*}} : memref<256x512xf32>, vector<2xf32>
// CHECK-NOT:   linalg.generic
func.func @mm_bias_in_place(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %bias: memref<512xf32>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.generic {qimeng.tag = "bias",
                  indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<512xf32>) outs(%C : memref<256x512xf32>) {
  ^bb0(%b: f32, %c: f32):
    %s = arith.addf %c, %b : f32
    linalg.yield %s : f32
  }
  return
}
qimeng.plan @mm_bias_in_place provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.fuse "mm" producer "fill"
  qimeng.fuse "mm" consumer "bias"
}
