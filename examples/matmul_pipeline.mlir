// The f32 matmul with a hand-written plan: the built-in plan plus a 3-stage
// software pipeline on the K loop (shared tiles filled by cp.async two
// iterations ahead). --llm-plan keeps a plan that is already there.
func.func @matmul_pipeline(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%C : memref<1024x1024xf32>)
  return
}
qimeng.plan @matmul_pipeline provenance "tuned" {
  qimeng.tile "fill" [1, 1024] to block
  qimeng.tile "fill" [1, 4] to thread
  qimeng.vectorize "fill" width 4
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.pipeline "mm" stages 3
}
