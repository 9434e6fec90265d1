func.func @gemm(%A: memref<3072x4096xbf16>, %B: memref<4096x5000xbf16>, %C: memref<3072x5000xbf16>) {

  linalg.matmul ins(%A, %B : memref<3072x4096xbf16>, memref<4096x5000xbf16>) outs(%C : memref<3072x5000xbf16>)
  return
}
