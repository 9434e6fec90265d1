module {
func.func @k(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%i, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%i] : memref<64xf32>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %j = %c0 to %c64 step %c4 {
      %t = vector.load %x[%j] : memref<64xf32>, vector<4xf32>
      %u = arith.addf %t, %t : vector<4xf32>
      vector.store %u, %y[%j] : memref<64xf32>, vector<4xf32>
    }
    gpu.terminator
  }
  return
}
}
