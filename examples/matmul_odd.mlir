// A small matmul that no tile size divides: 100x40 output, K = 77, on memrefs.
func.func @matmul_odd(%A: memref<100x77xf32>, %B: memref<77x40xf32>, %C: memref<100x40xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<100x40xf32>)
  linalg.matmul ins(%A, %B : memref<100x77xf32>, memref<77x40xf32>) outs(%C : memref<100x40xf32>)
  return
}
