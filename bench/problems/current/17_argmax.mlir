// KernelBench level1/51_Argmax_over_a_dimension.py (current shapes, KernelBench 423217d):
// torch.argmax(x, dim=1) for x of 128x4096x4095 f32 -> 128x4095 i64 (the first
// maximum; the running maximum lives in a temporary).
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, c)>
func.func @argmax(%x: tensor<128x4096x4095xf32>) -> tensor<128x4095xi64> {
  %idx = tensor.empty() : tensor<128x4095xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ve = tensor.empty() : tensor<128x4095xf32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ve : tensor<128x4095xf32>) -> tensor<128x4095xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%idx : tensor<128x4095xi64>) -> tensor<128x4095xi64>
  %0:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<128x4096x4095xf32>) outs(%v0, %i0 : tensor<128x4095xf32>, tensor<128x4095xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ri, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<128x4095xf32>, tensor<128x4095xi64>)
  return %0#1 : tensor<128x4095xi64>
}
