// Never finishes (a loop whose bound it keeps raising): the isolated run is
// killed at the time limit, the caller survives.
func.func @relu(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %r = scf.while (%v = %zero) : (f32) -> f32 {
      %go = arith.cmpf oge, %v, %zero : f32
      scf.condition(%go) %v : f32
    } do {
    ^bb0(%w: f32):
      %n = arith.addf %w, %one : f32
      %m = arith.minimumf %n, %one : f32
      scf.yield %m : f32
    }
    memref.store %r, %y[%c0, %c0] : memref<512x512xf32>
    gpu.terminator
  }
  return
}
