// RUN: qimeng-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, and print the same.
// RUN: qimeng-opt %s --split-input-file | qimeng-opt --split-input-file | FileCheck %s
// Generic form round-trips too.
// RUN: qimeng-opt %s --split-input-file --mlir-print-op-generic | qimeng-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.fill {qimeng.tag = "fill"}
// CHECK: linalg.matmul {qimeng.tag = "mm"}
// CHECK-LABEL: qimeng.plan @matmul provenance "llm:qwen2.5-coder" {
// CHECK-NEXT:    qimeng.fuse "mm" producer "fill"
// CHECK-NEXT:    qimeng.tile "mm" [128, 64, 0] to block interchange [1, 0, 2]
// CHECK-NEXT:    qimeng.tile "mm" [0, 0, 32] to reduction
// CHECK-NEXT:    qimeng.promote "mm" operands [0, 1] pad 8
// CHECK-NEXT:    qimeng.promote "mm" operands [2]{{$}}
// CHECK-NEXT:    qimeng.tile "mm" [64, 32, 0] to warp
// CHECK-NEXT:    qimeng.vectorize "mm" width 4
// CHECK-NEXT:    qimeng.unroll "mm" dim 2 factor 2
// CHECK-NEXT:    qimeng.pipeline "mm" stages 3
// CHECK-NEXT:    qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
// CHECK-NEXT:  }
func.func @matmul(%A: tensor<256x512xf16>, %B: tensor<512x128xf16>) -> tensor<256x128xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill {qimeng.tag = "fill"} ins(%cst : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<256x512xf16>, tensor<512x128xf16>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}
qimeng.plan @matmul provenance "llm:qwen2.5-coder" {
  qimeng.fuse "mm" producer "fill"
  qimeng.tile "mm" [128, 64, 0] to block interchange [1, 0, 2]
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.promote "mm" operands [2] pad 0
  qimeng.tile "mm" [64, 32, 0] to warp
  // Width 8 of f16 inputs is 128 bits, but the f32 result makes it 256.
  qimeng.vectorize "mm" width 4
  qimeng.unroll "mm" dim 2 factor 2
  qimeng.pipeline "mm" stages 3
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----

// Memrefs, a consumer fusion, tf32 asked for explicitly, wgmma and wmma.
// CHECK-LABEL: qimeng.plan @linear_relu provenance "tuned"
// CHECK-NEXT:    qimeng.tile "mm" [64, 64, 0] to block
// CHECK-NEXT:    qimeng.fuse "mm" consumer "relu"
// CHECK-NEXT:    qimeng.tile "mm" [4, 4, 0] to thread
// CHECK-NEXT:    qimeng.mma "mm" wgmma [64, 128, 8] (tf32, tf32) -> f32
// CHECK-NEXT:    qimeng.mma "mm" wmma [16, 16, 8] (tf32, tf32) -> f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_relu(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>, %Y: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], qimeng.tag = "relu"}
      ins(%C : memref<64x64xf32>) outs(%Y : memref<64x64xf32>) {
  ^bb0(%c: f32, %y: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %c, %z : f32
    linalg.yield %r : f32
  }
  return
}
qimeng.plan @linear_relu provenance "tuned" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.fuse "mm" consumer "relu"
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.mma "mm" wgmma [64, 128, 8] (tf32, tf32) -> f32
  qimeng.mma "mm" wmma [16, 16, 8] (tf32, tf32) -> f32
}

// -----

// An empty plan is legal (nothing to do), and plans sit beside their kernels.
// CHECK-LABEL: qimeng.plan @copy provenance "builtin" {
// CHECK-NEXT:  }
func.func @copy(%a: memref<8xf32>, %b: memref<8xf32>) {
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  return
}
qimeng.plan @copy provenance "builtin" {
}
