module {
func.func @k(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%i, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = memref.alloca() : memref<8xf32>
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%c0] : memref<8xf32>
    %sv = memref.subview %y[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
    %r = memref.load %a[%c0] : memref<8xf32>
    %m = arith.remui %i, %c64 : index
    %h = arith.constant 32 : index
    %q = arith.remui %m, %h : index
    memref.store %r, %sv[%q] : memref<32xf32, strided<[1]>>
    gpu.terminator
  }
  return
}
}
