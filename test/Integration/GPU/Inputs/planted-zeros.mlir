// Writes zeros (half the ReLU outputs are 0 anyway): rejected.
func.func @relu(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c512, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %y[%bx, %tx] : memref<512x512xf32>
    gpu.terminator
  }
  return
}
