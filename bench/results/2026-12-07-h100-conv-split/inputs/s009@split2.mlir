#in = affine_map<(s, n, f, h, w, c, kh, kw) -> (n, s, c, h + kh, w + kw)>
#wt = affine_map<(s, n, f, h, w, c, kh, kw) -> (f, s, c, kh, kw)>
#pt = affine_map<(s, n, f, h, w, c, kh, kw) -> (s, n, f, h, w)>
#sin = affine_map<(n, f, h, w, s) -> (s, n, f, h, w)>
#sout = affine_map<(n, f, h, w, s) -> (n, f, h, w)>
func.func @kernel(%x: tensor<16x96x32x32xf16>, %wt: tensor<8x96x3x3xf16>) -> tensor<16x8x32x32xf16> {
  %cst = arith.constant 0.0 : f16
  %pe = tensor.empty() : tensor<16x96x34x34xf16>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f16
  } : tensor<16x96x32x32xf16> to tensor<16x96x34x34xf16>
  %xi = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [16, 2, 48, 34, 34] : tensor<16x96x34x34xf16> into tensor<16x2x48x34x34xf16>
  %wi = tensor.expand_shape %wt [[0], [1, 2], [3], [4]] output_shape [8, 2, 48, 3, 3] : tensor<8x96x3x3xf16> into tensor<8x2x48x3x3xf16>
  %p0 = tensor.empty() : tensor<2x16x8x32x32xf16>
  %p1 = linalg.fill ins(%cst : f16) outs(%p0 : tensor<2x16x8x32x32xf16>) -> tensor<2x16x8x32x32xf16>
  %p = linalg.generic {indexing_maps = [#in, #wt, #pt], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xi, %wi : tensor<16x2x48x34x34xf16>, tensor<8x2x48x3x3xf16>) outs(%p1 : tensor<2x16x8x32x32xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    %s = arith.addf %o, %m : f16
    linalg.yield %s : f16
  } -> tensor<2x16x8x32x32xf16>
  %o0 = tensor.empty() : tensor<16x8x32x32xf16>
  %o1 = linalg.fill ins(%cst : f16) outs(%o0 : tensor<16x8x32x32xf16>) -> tensor<16x8x32x32xf16>
  %r = linalg.generic {indexing_maps = [#sin, #sout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x16x8x32x32xf16>) outs(%o1 : tensor<16x8x32x32xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %o, %a : f16
    linalg.yield %s : f16
  } -> tensor<16x8x32x32xf16>
  return %r : tensor<16x8x32x32xf16>
}
