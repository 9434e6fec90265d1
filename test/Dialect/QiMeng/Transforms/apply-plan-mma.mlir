// Tensor cores: tile to warps, then the warp-level contraction becomes
// mma.sync m16n8k16 fed by ldmatrix from the shared tiles.
// RUN: qimeng-opt %s --qimeng-apply-plan=steps=4 | FileCheck %s --check-prefix=WARP
// RUN: qimeng-opt %s --qimeng-apply-plan | FileCheck %s --check-prefix=MMA

// tile to warps: a 2x2 grid of warps, 32x32 outputs each.
// WARP-LABEL:  func.func @mm
// WARP:        scf.forall ({{.*}}) in (2, 2) {
// WARP:          linalg.matmul {qimeng.tag = "mm"} {{.*}} memref<32x32xf16, {{.*}}#gpu.address_space<workgroup>>{{.*}} memref<32x32xf16
// WARP:        } {mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]}

// The launch has 4 warps on x; A and B fragments come from ldmatrix (B
// transposed), 2x2 x 2 instructions per K step of 32 (16 per iteration), the
// accumulators stay in registers (8 fragments of 16x8 per warp).
// MMA-LABEL:   func.func @mm
// MMA:         gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// MMA:           scf.for {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// MMA:             nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// MMA:             nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// MMA-COUNT-16:    nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA:             scf.yield
// MMA-NOT:     vector.contract
func.func @mm(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %C: memref<256x512xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>) outs(%C : memref<256x512xf32>)
  return
}
qimeng.plan @mm provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// bf16 operands: the same fragments, loads and instructions as f16 (upstream
// converts f16 only; the launch is converted as f16 and retyped back), no f16
// value left.
// MMA-LABEL:   func.func @mm_bf16
// MMA-NOT:       {{[^b]}}f16{{[>,]}}
// MMA:           scf.for {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// MMA-NOT:       {{[^b]}}f16{{[>,]}}
// MMA:             nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// MMA-NOT:       {{[^b]}}f16{{[>,]}}
// MMA:             nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// MMA-NOT:       {{[^b]}}f16{{[>,]}}
// MMA-COUNT-16:    nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-NOT:       {{[^b]}}f16{{[>,]}}
// MMA:         return
func.func @mm_bf16(%A: memref<256x128xbf16>, %B: memref<128x512xbf16>, %C: memref<256x512xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xbf16>, memref<128x512xbf16>) outs(%C : memref<256x512xf32>)
  return
}
qimeng.plan @mm_bf16 provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (bf16, bf16) -> f32
}
