func.func @gemm(%A: memref<3072x4096xbf16>, %Bfull: memref<4096x5056xbf16>, %Cfull: memref<3072x5056xbf16>) {
  %B = memref.subview %Bfull[0, 0] [4096, 5000] [1, 1] : memref<4096x5056xbf16> to memref<4096x5000xbf16, strided<[5056, 1]>>
  %C = memref.subview %Cfull[0, 0] [3072, 5000] [1, 1] : memref<3072x5056xbf16> to memref<3072x5000xbf16, strided<[5056, 1]>>
  linalg.matmul ins(%A, %B : memref<3072x4096xbf16>, memref<4096x5000xbf16, strided<[5056, 1]>>) outs(%C : memref<3072x5000xbf16, strided<[5056, 1]>>)
  return
}
