// y = A x on memrefs (KernelBench level 1 #4, scaled): 4096x8192 f32.
func.func @matvec(%A: memref<4096x8192xf32>, %x: memref<8192xf32>, %y: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<4096xf32>)
  linalg.matvec ins(%A, %x : memref<4096x8192xf32>, memref<8192xf32>) outs(%y : memref<4096xf32>)
  return
}
