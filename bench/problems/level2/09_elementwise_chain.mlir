// Elementwise chain (QiMeng's level 2; no KernelBench v0.1 problem):
// y = tanh(relu(x * 2 + 1)) as four separate ops, the way an eager framework
// emits them (qimeng-prepare fuses the chain), over 16x16384 f32 (the shape
// of KernelBench level 1's activations).
// The result is built inside (tensor.empty) and returned, as torch-mlir
// writes it; the caller gets the device buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_chain(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %y = tensor.empty() : tensor<16x16384xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<16x16384xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16384xf32>) outs(%e0 : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  %e1 = tensor.empty() : tensor<16x16384xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<16x16384xf32>) outs(%e1 : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %one : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  %e2 = tensor.empty() : tensor<16x16384xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%1 : tensor<16x16384xf32>) outs(%e2 : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2 : tensor<16x16384xf32>) outs(%y : tensor<16x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<16x16384xf32>
  return %3 : tensor<16x16384xf32>
}
