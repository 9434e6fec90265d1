// KernelBench level1/26_GELU_.py (v0.1 shapes): exact (erf) GELU as
// torch.nn.functional.gelu's default, y = 0.5 x (1 + erf(x / sqrt(2))),
// over 16x16384 f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %y = tensor.empty() : tensor<16x16384xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106781 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16384xf32>) outs(%y : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %rsqrt2 : f32
    %e = math.erf %s : f32
    %t = arith.addf %e, %one : f32
    %u = arith.mulf %a, %t : f32
    %r = arith.mulf %u, %half : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  return %0 : tensor<16x16384xf32>
}
