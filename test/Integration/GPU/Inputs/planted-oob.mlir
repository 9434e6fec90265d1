// Stores far outside its output (an illegal address): the run fails with
// the CUDA error, the caller survives.
func.func @relu(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c512, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
    %far = arith.constant 1073741824 : index
    %row = arith.addi %bx, %far : index
    %v = memref.load %x[%bx, %tx] : memref<512x512xf32>
    memref.store %v, %y[%row, %tx] : memref<512x512xf32>
    gpu.terminator
  }
  return
}
