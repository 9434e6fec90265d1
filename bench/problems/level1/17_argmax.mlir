// KernelBench level1/51_Argmax_over_a_dimension.py (v0.1 shapes):
// torch.argmax(x, dim=1) for x of 16x256x256 f32 -> 16x256 i64 (the first
// maximum; the running maximum lives in a temporary).
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
func.func @argmax(%x: tensor<16x256x256xf32>) -> tensor<16x256xi64> {
  %idx = tensor.empty() : tensor<16x256xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ve = tensor.empty() : tensor<16x256xf32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ve : tensor<16x256xf32>) -> tensor<16x256xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%idx : tensor<16x256xi64>) -> tensor<16x256xi64>
  %0:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<16x256x256xf32>) outs(%v0, %i0 : tensor<16x256xf32>, tensor<16x256xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ri, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<16x256xf32>, tensor<16x256xi64>)
  return %0#1 : tensor<16x256xi64>
}
