// KernelBench level1/19_ReLU.py (current shapes, KernelBench 423217d):
// y = max(x, 0) over 4096x393216 f32.
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: tensor<4096x393216xf32>) -> tensor<4096x393216xf32> {
  %y = tensor.empty() : tensor<4096x393216xf32>
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x393216xf32>) outs(%y : tensor<4096x393216xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4096x393216xf32>
  return %0 : tensor<4096x393216xf32>
}
