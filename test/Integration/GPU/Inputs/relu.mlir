// The original program the planted kernels are checked against.
func.func @relu(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%y : memref<512x512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}
