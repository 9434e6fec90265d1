// f32 matmuls take the tensor cores only when tf32 is allowed (qimeng-opt's
// --allow-tf32): mma.sync m16n8k8 with tf32 inputs, shared rows padded by 4
// f32 (16 bytes), on both targets (no tf32 wgmma kernel).
// RUN: qimeng-opt %s --split-input-file --qimeng-plan=target=sm_90 | FileCheck %s --check-prefix=F32
// RUN: qimeng-opt %s --split-input-file --qimeng-plan="target=sm_90 tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: qimeng-opt %s --split-input-file --qimeng-plan="target=sm_80 tf32=true" | FileCheck %s --check-prefix=TF32
// The verifier's reference stays plain.
// RUN: qimeng-opt %s --split-input-file --qimeng-plan="naive=true tf32=true" | FileCheck %s --check-prefix=NAIVE

// F32-LABEL: qimeng.plan @matmul_f32
// F32-NOT:     qimeng.mma
// F32:         qimeng.tile "matmul0" [{{[0-9]+}}, {{[0-9]+}}, 0] to thread
// F32:       }
// TF32-LABEL: qimeng.plan @matmul_f32 provenance "builtin" attributes {qimeng.replaceable} {
// TF32-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// TF32-NEXT:    qimeng.tile "matmul0" [0, 0, 32] to reduction
// TF32-NEXT:    qimeng.promote "matmul0" operands [0, 1] pad 4{{$}}
// TF32-NEXT:    qimeng.tile "matmul0" [32, 32, 0] to warp
// TF32-NEXT:    qimeng.vectorize "matmul0" width 4
// TF32-NEXT:    qimeng.mma "matmul0" mma_sync [16, 8, 8] (tf32, tf32) -> f32
// TF32-NEXT:    qimeng.pipeline "matmul0" stages 2
// TF32-NEXT:  }
// NAIVE-LABEL: qimeng.plan @matmul_f32
// NAIVE-NOT:     qimeng.mma
// NAIVE:       }
func.func @matmul_f32(%A: memref<256x128xf32>, %B: memref<128x192xf32>, %C: memref<256x192xf32>) {
  linalg.matmul ins(%A, %B : memref<256x128xf32>, memref<128x192xf32>)
                outs(%C : memref<256x192xf32>)
  return
}

// -----

// Batched: one batch per block.
// TF32-LABEL: qimeng.plan @batch_matmul_f32
// TF32-NEXT:    qimeng.tile "{{.*}}" [1, 64, 64, 0] to block
// TF32:         qimeng.mma "{{.*}}" mma_sync [16, 8, 8] (tf32, tf32) -> f32
func.func @batch_matmul_f32(%A: memref<4x128x64xf32>, %B: memref<4x64x128xf32>, %C: memref<4x128x128xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<4x128x64xf32>, memref<4x64x128xf32>)
                      outs(%C : memref<4x128x128xf32>)
  return
}

// -----

// Partial tiles keep the SIMT plan (the pipeline's qimeng-prepare pads f32
// matmuls to whole tiles before planning; qimeng-plan alone does not).
// TF32-LABEL: qimeng.plan @matmul_partial_tiles
// TF32-NOT:     qimeng.mma
// TF32:       }
func.func @matmul_partial_tiles(%A: memref<100x128xf32>, %B: memref<128x192xf32>, %C: memref<100x192xf32>) {
  linalg.matmul ins(%A, %B : memref<100x128xf32>, memref<128x192xf32>)
                outs(%C : memref<100x192xf32>)
  return
}
