module {
func.func @k(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%i, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %y[%i] : memref<64xf32>
    gpu.terminator
  }
  return
}
func.func @other() {
  return
}
}
