// Reads the neighbouring column (an off-by-one tile offset): rejected.
func.func @relu(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c512, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %c1i = arith.constant 1 : index
    %c511 = arith.constant 511 : index
    %t = arith.addi %tx, %c1i : index
    %j = arith.minui %t, %c511 : index
    %v = memref.load %x[%bx, %j] : memref<512x512xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %y[%bx, %tx] : memref<512x512xf32>
    gpu.terminator
  }
  return
}
