// Plan variant matmul@b64_p2 of the 1024^3 fill + matmul (measured in docs/status.md).
func.func @k(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%C : memref<1024x1024xf32>)
  return
}
qimeng.plan @k provenance "tuned" {
  qimeng.tile "fill" [1, 1024] to block
  qimeng.tile "fill" [1, 4] to thread
  qimeng.vectorize "fill" width 4
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.pipeline "mm" stages 2
}
