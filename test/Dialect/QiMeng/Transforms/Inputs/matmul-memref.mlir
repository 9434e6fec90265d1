func.func @mm(%A: memref<256x128xf32>, %B: memref<128x512xf32>, %C: memref<256x512xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x128xf32>, memref<128x512xf32>) outs(%C : memref<256x512xf32>)
  return
}
qimeng.plan @mm provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
}
