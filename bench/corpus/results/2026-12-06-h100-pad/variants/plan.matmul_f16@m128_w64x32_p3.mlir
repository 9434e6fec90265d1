// Plan variant matmul_f16@m128_w64x32_p3 of the 1024^3 fill + matmul (measured in docs/status.md).
func.func @k(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%C : memref<1024x1024xf32>)
  return
}
qimeng.plan @k provenance "tuned" {
  qimeng.tile "fill" [1, 1024] to block
  qimeng.tile "fill" [1, 4] to thread
  qimeng.vectorize "fill" width 4
  qimeng.tile "mm" [128, 128, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [64, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
  qimeng.pipeline "mm" stages 3
}
