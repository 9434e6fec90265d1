// The tensor-core plans per target: mma.sync on sm_80 (and the SIMT plan
// for what it does not take), wgmma on sm_90.
// RUN: qimeng-opt %s --split-input-file --qimeng-plan=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: qimeng-opt %s --split-input-file --qimeng-plan=target=sm_90 | FileCheck %s --check-prefix=SM90

// f16 inputs with f32 accumulation, row-major and whole tiles: tensor cores
// (64x64 blocks of four 32x32 warps, K step 32, shared rows padded by 8
// f16, mma.sync m16n8k16, 2-stage pipeline).
// SM80-LABEL: qimeng.plan @matmul_f16 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// SM80-NEXT:    qimeng.tile "matmul0" [0, 0, 32] to reduction
// SM80-NEXT:    qimeng.promote "matmul0" operands [0, 1] pad 8{{$}}
// SM80-NEXT:    qimeng.tile "matmul0" [32, 32, 0] to warp
// SM80-NEXT:    qimeng.vectorize "matmul0" width 4
// SM80-NEXT:    qimeng.mma "matmul0" mma_sync [16, 8, 16] (f16, f16) -> f32
// SM80-NEXT:    qimeng.pipeline "matmul0" stages 2
// SM80-NEXT:  }
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f16(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 inputs take f16's tensor-core plan (mma.sync m16n8k16 with bf16
// operands); f16 with a transposed operand takes the SIMT matmul path.
// SM80-LABEL: qimeng.plan @matmul_bf16 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// SM80-NEXT:    qimeng.tile "matmul0" [0, 0, 32] to reduction
// SM80-NEXT:    qimeng.promote "matmul0" operands [0, 1] pad 8{{$}}
// SM80-NEXT:    qimeng.tile "matmul0" [32, 32, 0] to warp
// SM80-NEXT:    qimeng.vectorize "matmul0" width 4
// SM80-NEXT:    qimeng.mma "matmul0" mma_sync [16, 8, 16] (bf16, bf16) -> f32
// SM80-NEXT:    qimeng.pipeline "matmul0" stages 2
// SM80-NEXT:  }
// SM80-LABEL: qimeng.plan @matmul_f16_transposed provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// SM80-NOT:     qimeng.mma
// SM80:         qimeng.tile "matmul0" [4, 4, 0] to thread
func.func @matmul_bf16(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}
func.func @matmul_f16_transposed(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}

// On sm_90 all three take the wgmma kernel: 128x128 blocks (256 x 256
// outputs give too few 128x256 blocks for the SMs), K step 64, consumer
// warpgroups of 64 rows, 4 TMA stages; B stored (n, k) too (its kernel
// reads it k-major).
// SM90-LABEL: qimeng.plan @matmul_f16 provenance "builtin" attributes {qimeng.replaceable} {
// SM90-NEXT:    qimeng.tile "matmul0" [128, 128, 0] to block
// SM90-NEXT:    qimeng.tile "matmul0" [0, 0, 64] to reduction
// SM90-NEXT:    qimeng.tile "matmul0" [64, 128, 0] to warp
// SM90-NEXT:    qimeng.mma "matmul0" wgmma [64, 128, 16] (f16, f16) -> f32
// SM90-NEXT:    qimeng.pipeline "matmul0" stages 4
// SM90-NEXT:  }
// SM90-LABEL: qimeng.plan @matmul_bf16 provenance "builtin" attributes {qimeng.replaceable} {
// SM90:         qimeng.mma "matmul0" wgmma [64, 128, 16] (bf16, bf16) -> f32
// SM90-LABEL: qimeng.plan @matmul_f16_transposed provenance "builtin" attributes {qimeng.replaceable} {
// SM90:         qimeng.tile "matmul0" [64, 128, 0] to warp
// SM90-NEXT:    qimeng.mma "matmul0" wgmma [64, 128, 16] (f16, f16) -> f32

// -----

// wgmma takes any M (dynamic here), 16-bit results (bf16 out: f32
// accumulators rounded once), 128x256 blocks when N gives the SMs enough of
// them, and folds the accumulator's fill; N or K not a multiple of 8 (rows
// TMA cannot read) takes other plans; a batched matmul takes it with one
// batch per block (tiles 1 along the batch).
// SM90-LABEL: qimeng.plan @linear provenance "builtin" attributes {qimeng.replaceable} {
// SM90-NEXT:    qimeng.tile "matmul0" [128, 256, 0] to block
// SM90-NEXT:    qimeng.tile "matmul0" [0, 0, 64] to reduction
// SM90-NEXT:    qimeng.tile "matmul0" [64, 256, 0] to warp
// SM90-NEXT:    qimeng.mma "matmul0" wgmma [64, 256, 16] (bf16, bf16) -> f32
// SM90-NEXT:    qimeng.pipeline "matmul0" stages 4
// SM90-NEXT:    qimeng.fuse "matmul0" producer "fill0"
// SM90-NEXT:  }
// SM90-LABEL: qimeng.plan @odd_k provenance "builtin" attributes {qimeng.replaceable} {
// SM90-NOT:     wgmma
// SM90:       {{^  }$}}
// SM90-LABEL: qimeng.plan @batched provenance "builtin" attributes {qimeng.replaceable} {
// SM90-NEXT:    qimeng.tile "contraction0" [1, 128, 128, 0] to block
// SM90-NEXT:    qimeng.tile "contraction0" [0, 0, 0, 64] to reduction
// SM90-NEXT:    qimeng.tile "contraction0" [1, 64, 128, 0] to warp
// SM90-NEXT:    qimeng.mma "contraction0" wgmma [64, 128, 16] (f16, f16) -> f32
// SM90-NEXT:    qimeng.pipeline "contraction0" stages 4
// SM90-NEXT:  }
func.func @linear(%x: tensor<?x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xbf16>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty(%m) : tensor<?x4096xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  %r = linalg.matmul ins(%x, %w : tensor<?x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  return %r : tensor<?x4096xbf16>
}
func.func @odd_k(%a: memref<256x100xbf16>, %b: memref<100x256xbf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x100xbf16>, memref<100x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}
func.func @batched(%a: memref<4x256x256xf16>, %b: memref<4x256x256xf16>, %c: memref<4x256x256xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x256x256xf16>, memref<4x256x256xf16>) outs(%c : memref<4x256x256xf32>)
  return
}

// -----

// f64 throughout, batched (a dynamic batch) or not: mma.sync m8n8k4 (DMMA)
// on both targets, K step 16, shared rows padded by 4 f64, 128-bit copies
// (two f64); 64x64 blocks of four 32x32 warps where they give every SM two
// (1024 x 2048: 512 blocks), else 32x32 blocks of four 16x16 warps (a
// dynamic batch counts as one: 4 x 16 64x64 blocks). Whole tiles only
// (qimeng-prepare pads the rest); a mixed f32 x f64 product stays off the
// tensor cores.
// SM80-LABEL: qimeng.plan @matmul_f64 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [32, 32, 0] to block
// SM80-NEXT:    qimeng.tile "matmul0" [0, 0, 16] to reduction
// SM80-NEXT:    qimeng.promote "matmul0" operands [0, 1] pad 4
// SM80-NEXT:    qimeng.tile "matmul0" [16, 16, 0] to warp
// SM80-NEXT:    qimeng.vectorize "matmul0" width 2
// SM80-NEXT:    qimeng.mma "matmul0" mma_sync [8, 8, 4] (f64, f64) -> f64
// SM80-NEXT:    qimeng.pipeline "matmul0" stages 2
// SM80-NEXT:  }
// SM80-LABEL: qimeng.plan @large_f64 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// SM80-NEXT:    qimeng.tile "matmul0" [0, 0, 16] to reduction
// SM80-NEXT:    qimeng.promote "matmul0" operands [0, 1] pad 4
// SM80-NEXT:    qimeng.tile "matmul0" [32, 32, 0] to warp
// SM80-LABEL: qimeng.plan @batched_f64 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "contraction0" [1, 32, 32, 0] to block
// SM80:         qimeng.tile "contraction0" [0, 16, 16, 0] to warp
// SM80:         qimeng.mma "contraction0" mma_sync [8, 8, 4] (f64, f64) -> f64
// SM80-LABEL: qimeng.plan @f64_by_f32 provenance "builtin"
// SM80-NOT:     qimeng.mma
// SM80:       }
// SM90-LABEL: qimeng.plan @matmul_f64 provenance "builtin" attributes {qimeng.replaceable} {
// SM90:         qimeng.mma "matmul0" mma_sync [8, 8, 4] (f64, f64) -> f64
// SM90-LABEL: qimeng.plan @batched_f64 provenance "builtin" attributes {qimeng.replaceable} {
// SM90:         qimeng.mma "contraction0" mma_sync [8, 8, 4] (f64, f64) -> f64
func.func @matmul_f64(%a: memref<128x64xf64>, %b: memref<64x192xf64>, %c: memref<128x192xf64>) {
  linalg.matmul ins(%a, %b : memref<128x64xf64>, memref<64x192xf64>) outs(%c : memref<128x192xf64>)
  return
}
func.func @large_f64(%a: memref<1024x64xf64>, %b: memref<64x2048xf64>, %c: memref<1024x2048xf64>) {
  linalg.matmul ins(%a, %b : memref<1024x64xf64>, memref<64x2048xf64>) outs(%c : memref<1024x2048xf64>)
  return
}
func.func @batched_f64(%a: memref<?x256x256xf64>, %b: memref<?x256x1024xf64>, %c: memref<?x256x1024xf64>) {
  linalg.batch_matmul ins(%a, %b : memref<?x256x256xf64>, memref<?x256x1024xf64>) outs(%c : memref<?x256x1024xf64>)
  return
}
func.func @f64_by_f32(%a: memref<128x64xf32>, %b: memref<64x192xf32>, %c: memref<128x192xf64>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x192xf32>) outs(%c : memref<128x192xf64>)
  return
}

// -----

// On sm_80's mma.sync plan the zero fill starts the accumulators and the
// bias + ReLU run in the epilogue: both fused, with no tiles of their own.
// A fill of a run-time value is not fused (mma.sync fragments start from
// constants only).
// SM80-LABEL: qimeng.plan @linear_f16_bias_relu provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// SM80:         qimeng.mma "matmul0" mma_sync [16, 8, 16] (f16, f16) -> f32
// SM80-NEXT:    qimeng.pipeline "matmul0" stages 2
// SM80-NEXT:    qimeng.fuse "matmul0" producer "fill0"
// SM80-NEXT:    qimeng.fuse "matmul0" consumer "elementwise0"
// SM80-NEXT:  }
// SM80-LABEL: qimeng.plan @matmul_f16_fill_argument provenance "builtin" attributes {qimeng.replaceable} {
// SM80:         qimeng.tile "fill0" {{.*}} to block
// SM80:         qimeng.mma "matmul0" mma_sync
// SM80-NOT:     qimeng.fuse
// SM80:       }
func.func @linear_f16_bias_relu(%x: tensor<512x256xf16>, %w: tensor<256x768xf16>,
                                %b: tensor<768xf32>) -> tensor<512x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x768xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<512x256xf16>, tensor<256x768xf16>)
                      outs(%acc : tensor<512x768xf32>) -> tensor<512x768xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<512x768xf32>, tensor<768xf32>) outs(%e : tensor<512x768xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<512x768xf32>
  return %y : tensor<512x768xf32>
}
func.func @matmul_f16_fill_argument(%x: tensor<512x256xf16>, %w: tensor<256x768xf16>,
                                    %init: f32) -> tensor<512x768xf32> {
  %e = tensor.empty() : tensor<512x768xf32>
  %acc = linalg.fill ins(%init : f32) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<512x256xf16>, tensor<256x768xf16>)
                      outs(%acc : tensor<512x768xf32>) -> tensor<512x768xf32>
  return %mm : tensor<512x768xf32>
}

// -----

// A generic whose product is taken in f16 and extended afterwards is not
// what tensor cores compute (their products are f32): the SIMT plan, batched
// or not.
// SM80-LABEL: qimeng.plan @product_in_f16 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NOT:     qimeng.mma
// SM80:         qimeng.tile "matmul0" [4, 4, 0] to thread
// SM80-LABEL: qimeng.plan @batched_product_in_f16 provenance "builtin" attributes {qimeng.replaceable} {
// SM80-NOT:     qimeng.mma
// SM80:         to thread
func.func @product_in_f16(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %p = arith.mulf %x, %y : f16
    %pf = arith.extf %p : f16 to f32
    %s = arith.addf %o, %pf : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
func.func @batched_product_in_f16(%a: tensor<4x128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(p, m, n, k) -> (p, m, k)>, affine_map<(p, m, n, k) -> (k, n)>, affine_map<(p, m, n, k) -> (p, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<4x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %p = arith.mulf %x, %y : f16
    %pf = arith.extf %p : f16 to f32
    %s = arith.addf %o, %pf : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %r : tensor<4x128x128xf32>
}
