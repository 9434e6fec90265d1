// Plan variant batch_matmul_f64@pad4: the FP64 tensor-core plan with each shared row padded by 4 f64 (32 bytes), so the 64-bit fragment loads of a warp spread over the banks.
func.func @k(%A: memref<3x256x256xf64>, %B: memref<3x256x1024xf64>, %C: memref<3x256x1024xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f64) outs(%C : memref<3x256x1024xf64>)
  linalg.batch_matmul {qimeng.tag = "mm"} ins(%A, %B : memref<3x256x256xf64>, memref<3x256x1024xf64>) outs(%C : memref<3x256x1024xf64>)
  return
}
qimeng.plan @k provenance "tuned" {
  qimeng.tile "fill" [1, 1, 512] to block
  qimeng.tile "fill" [1, 1, 2] to thread
  qimeng.vectorize "fill" width 2
  qimeng.tile "mm" [1, 64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1] pad 4
  qimeng.tile "mm" [0, 32, 32, 0] to warp
  qimeng.vectorize "mm" width 2
  qimeng.mma "mm" mma_sync [8, 8, 4] (f64, f64) -> f64
  qimeng.pipeline "mm" stages 2
}
