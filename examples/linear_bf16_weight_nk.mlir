// A bf16 nn.Linear as torch-mlir writes it: the weight stored [out, in]
// ((n, k)), transposed by a linalg.transpose, multiplied into a zero-filled
// tensor.empty, then the bias added; a dynamic batch of rows, N = 1539 (odd:
// the weight's rows are K long, all TMA needs; the epilogue stores scalars)
// and K = 1000, not multiples of the tiles. On sm_90 the matmul reads the
// weight as it is stored (its kernel loads it k-major, as A: no transposed
// copy) and the bias runs in the wgmma kernel's epilogue: one kernel.
#rows = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @linear_nk(%x: tensor<?x1000xbf16>, %w: tensor<1539x1000xbf16>,
                     %b: tensor<1539xbf16>) -> tensor<?x1539xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1000xbf16>
  %zero = arith.constant 0.0 : bf16
  %te = tensor.empty() : tensor<1000x1539xbf16>
  %wt = linalg.transpose ins(%w : tensor<1539x1000xbf16>)
                         outs(%te : tensor<1000x1539xbf16>) permutation = [1, 0]
  %empty = tensor.empty(%m) : tensor<?x1539xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<?x1539xbf16>) -> tensor<?x1539xbf16>
  %mm = linalg.matmul ins(%x, %wt : tensor<?x1000xbf16>, tensor<1000x1539xbf16>)
                      outs(%acc : tensor<?x1539xbf16>) -> tensor<?x1539xbf16>
  %y = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x1539xbf16>, tensor<1539xbf16>) outs(%empty : tensor<?x1539xbf16>) {
  ^bb0(%v: bf16, %bv: bf16, %o: bf16):
    %vf = arith.extf %v : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %s = arith.addf %vf, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<?x1539xbf16>
  return %y : tensor<?x1539xbf16>
}
