#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_gelu(%x: tensor<37x53xf32>, %b: tensor<53xf32>) -> tensor<37x53xf32> {
  %e = tensor.empty() : tensor<37x53xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %r2 = arith.constant 0.707106781 : f32
  %0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<37x53xf32>, tensor<53xf32>) outs(%e : tensor<37x53xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    %u = arith.mulf %t, %r2 : f32
    %er = math.erf %u : f32
    %p = arith.addf %er, %one : f32
    %v = arith.mulf %t, %p : f32
    %w = arith.mulf %v, %half : f32
    linalg.yield %w : f32
  } -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}
func.func @softmax(%x: tensor<19x300xf32>) -> tensor<19x300xf32> {
  %e = tensor.empty() : tensor<19x300xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<19x300xf32>) outs(%e : tensor<19x300xf32>) -> tensor<19x300xf32>
  return %0 : tensor<19x300xf32>
}
func.func @sum_mid(%x: tensor<6x33x10xf32>, %out: tensor<6x10xf32>) -> tensor<6x10xf32> {
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%out : tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = linalg.reduce ins(%x : tensor<6x33x10xf32>) outs(%f : tensor<6x10xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<6x10xf32>
}
func.func @mm_bias_relu(%a: tensor<100x77xf32>, %b: tensor<77x40xf32>, %bias: tensor<40xf32>) -> tensor<100x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x40xf32>) -> tensor<100x40xf32>
  %m = linalg.matmul ins(%a, %b : tensor<100x77xf32>, tensor<77x40xf32>) outs(%f : tensor<100x40xf32>) -> tensor<100x40xf32>
  %e2 = tensor.empty() : tensor<100x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<100x40xf32>, tensor<40xf32>) outs(%e2 : tensor<100x40xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %y = arith.maximumf %s, %z : f32
    linalg.yield %y : f32
  } -> tensor<100x40xf32>
  return %r : tensor<100x40xf32>
}
// Destination passing (the form of the benchmark problems): LayerNorm over
// the last dimension with a row-major reshape of the mean to keepdim.
func.func @layernorm(%x: tensor<24x130xf32>, %out: tensor<24x130xf32>) -> tensor<24x130xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 130.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %se = tensor.empty() : tensor<24xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<24xf32>) -> tensor<24xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<24x130xf32>) outs(%s0 : tensor<24xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %me = tensor.empty() : tensor<24xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<24xf32>) outs(%me : tensor<24xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<24xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%se : tensor<24xf32>) -> tensor<24xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<24x130xf32>, tensor<24xf32>) outs(%q0 : tensor<24xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq : tensor<24x130xf32>, tensor<24xf32>, tensor<24xf32>) outs(%out : tensor<24x130xf32>) {
  ^bb0(%a: f32, %m: f32, %q: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %r = arith.mulf %d, %rs : f32
    linalg.yield %r : f32
  } -> tensor<24x130xf32>
  return %y : tensor<24x130xf32>
}
// A keepdim max over the middle dimension, returned through expand_shape.
func.func @max_keepdim(%x: tensor<5x70x9xf32>) -> tensor<5x1x9xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<5x9xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<5x9xf32>) -> tensor<5x9xf32>
  %r = linalg.reduce ins(%x : tensor<5x70x9xf32>) outs(%f : tensor<5x9xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32 }
  %k = tensor.expand_shape %r [[0, 1], [2]] output_shape [5, 1, 9] : tensor<5x9xf32> into tensor<5x1x9xf32>
  return %k : tensor<5x1x9xf32>
}
// A full reduction to a 0-d tensor (a loss), and two results.
func.func @sum_and_square(%x: tensor<40x50xf32>) -> (tensor<f32>, tensor<40x50xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<40x50xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %e2 = tensor.empty() : tensor<40x50xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<40x50xf32>) outs(%e2 : tensor<40x50xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    linalg.yield %sq : f32
  } -> tensor<40x50xf32>
  return %s, %q : tensor<f32>, tensor<40x50xf32>
}
// A transpose (a permuted output) and a select on a comparison.
func.func @transpose_clamp(%x: tensor<33x17xf32>) -> tensor<17x33xf32> {
  %e = tensor.empty() : tensor<17x33xf32>
  %lo = arith.constant -0.5 : f32
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<33x17xf32>) outs(%e : tensor<17x33xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.cmpf olt, %a, %lo : f32
    %s = arith.select %c, %lo, %a : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<17x33xf32>
  return %r : tensor<17x33xf32>
}
// Batched matmul with a transposed B, accumulating into its destination.
func.func @bmm_acc(%a: tensor<3x20x36xf32>, %b: tensor<3x28x36xf32>, %c: tensor<3x20x28xf32>) -> tensor<3x20x28xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x20x36xf32>, tensor<3x28x36xf32>) outs(%c : tensor<3x20x28xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x20x28xf32>
  return %r : tensor<3x20x28xf32>
}
// Linear, then a sum over its outputs: two kernels and an intermediate.
func.func @linear_sum(%x: tensor<64x48xf32>, %w: tensor<48x32xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x48xf32>, tensor<48x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %se = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<64x32xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = math.exp %a : f32
    %r = arith.addf %t, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
// f16 inputs, f32 accumulation and result.
func.func @matmul_f16(%a: tensor<48x64xf16>, %b: tensor<64x32xf16>) -> tensor<48x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<48x32xf32>) -> tensor<48x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<48x64xf16>, tensor<64x32xf16>) outs(%f : tensor<48x32xf32>) -> tensor<48x32xf32>
  return %m : tensor<48x32xf32>
}
// Integers: a clamp and a cast.
func.func @int_clamp(%x: tensor<50xi32>) -> tensor<50xf32> {
  %e = tensor.empty() : tensor<50xf32>
  %lo = arith.constant -3 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<50xi32>) outs(%e : tensor<50xf32>) {
  ^bb0(%a: i32, %o: f32):
    %m = arith.maxsi %a, %lo : i32
    %f = arith.sitofp %m : i32 to f32
    linalg.yield %f : f32
  } -> tensor<50xf32>
  return %r : tensor<50xf32>
}
// Argmax over the middle dimension (the first maximum's index), ties made
// likely by rounding.
func.func @argmax_mid(%x: tensor<4x45x6xf32>) -> tensor<4x6xi64> {
  %idx = tensor.empty() : tensor<4x6xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ten = arith.constant 2.0 : f32
  %ve = tensor.empty() : tensor<4x6xf32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ve : tensor<4x6xf32>) -> tensor<4x6xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%idx : tensor<4x6xi64>) -> tensor<4x6xi64>
  %0:2 = linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>, affine_map<(b, r, c) -> (b, c)>, affine_map<(b, r, c) -> (b, c)>],
                         iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<4x45x6xf32>) outs(%v0, %i0 : tensor<4x6xf32>, tensor<4x6xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %s = arith.mulf %a, %ten : f32
    %t = math.floor %s : f32
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpf ogt, %t, %m : f32
    %nm = arith.select %gt, %t, %m : f32
    %ni = arith.select %gt, %ri, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<4x6xf32>, tensor<4x6xi64>)
  return %0#1 : tensor<4x6xi64>
}
// Windows: a padded convolution (QiMeng's prepare turns the pad into a
// gather), a strided NCHW convolution, a depthwise one, max pooling.
func.func @conv_padded(%x: tensor<2x9x9x3xf32>, %w: tensor<3x3x3x5xf32>, %y: tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w_: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x3xf32> to tensor<2x11x11x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<2x11x11x3xf32>, tensor<3x3x3x5xf32>)
      outs(%acc : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  return %0 : tensor<2x9x9x5xf32>
}
func.func @conv_nchw_stride2(%x: tensor<2x3x11x11xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x11x11xf32>, tensor<4x3x3x3xf32>)
      outs(%acc : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %0 : tensor<2x4x5x5xf32>
}
func.func @depthwise(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x6xf32>) -> tensor<1x6x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x6xf32>, tensor<3x3x6xf32>)
      outs(%acc : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}
func.func @maxpool(%x: tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4x3xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x4x4x3xf32>) -> tensor<2x4x4x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<2x8x8x3xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<2x4x4x3xf32>) -> tensor<2x4x4x3xf32>
  return %0 : tensor<2x4x4x3xf32>
}
