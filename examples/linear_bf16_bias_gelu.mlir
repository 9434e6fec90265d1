// A bf16 Linear layer with bias and GELU (tanh form): a dynamic batch of
// rows, the weight stored [in, out], the matmul's result rounded to bf16,
// then bias and GELU computed in f32 and rounded once (an op with two bf16
// roundings in a row differs from any reference by up to 3 ulps where one
// rounding flips). On sm_90 the matmul takes the wgmma kernel and the
// rounding, bias and GELU run in its epilogue: one kernel.
#rows = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @linear_bias_gelu(%x: tensor<?x1024xbf16>, %w: tensor<1024x4096xbf16>,
                            %b: tensor<4096xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xbf16>
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty(%m) : tensor<?x4096xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  %mm = linalg.matmul ins(%x, %w : tensor<?x1024xbf16>, tensor<1024x4096xbf16>)
                      outs(%acc : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  %gelu = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x4096xbf16>, tensor<4096xbf16>) outs(%empty : tensor<?x4096xbf16>) {
  ^bb0(%v: bf16, %bv: bf16, %o: bf16):
    %vf = arith.extf %v : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %f = arith.addf %vf, %bf : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c = arith.constant 0.044715 : f32
    %x2 = arith.mulf %f, %f : f32
    %x3 = arith.mulf %x2, %f : f32
    %t0 = arith.mulf %c, %x3 : f32
    %t1 = arith.addf %f, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %one, %th : f32
    %t4 = arith.mulf %half, %f : f32
    %g = arith.mulf %t4, %t3 : f32
    %r = arith.truncf %g : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<?x4096xbf16>
  return %gelu : tensor<?x4096xbf16>
}
