// A bf16 nn.Linear on a few rows (97 tokens of a decode step), as torch-mlir
// writes it: the weight stored [out, in] ((n, k)) and transposed by a
// linalg.transpose, a zero-filled tensor.empty, then the bias. Its output is
// 12 tiles of 128 x 128, far fewer than an H200's 132 SMs, and K = 4096 is
// long: on sm_90 qimeng-prepare splits K into parts (each part's product on
// blocks of its own in one wgmma kernel, the weight read as it is stored)
// and a second kernel adds the parts, the bias and the rounding to bf16.
#rows = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @linear_few_rows(%x: tensor<97x4096xbf16>, %w: tensor<1536x4096xbf16>,
                           %b: tensor<1536xbf16>) -> tensor<97x1536xbf16> {
  %zero = arith.constant 0.0 : bf16
  %te = tensor.empty() : tensor<4096x1536xbf16>
  %wt = linalg.transpose ins(%w : tensor<1536x4096xbf16>)
                         outs(%te : tensor<4096x1536xbf16>) permutation = [1, 0]
  %empty = tensor.empty() : tensor<97x1536xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<97x1536xbf16>) -> tensor<97x1536xbf16>
  %mm = linalg.matmul ins(%x, %wt : tensor<97x4096xbf16>, tensor<4096x1536xbf16>)
                      outs(%acc : tensor<97x1536xbf16>) -> tensor<97x1536xbf16>
  %y = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<97x1536xbf16>, tensor<1536xbf16>) outs(%empty : tensor<97x1536xbf16>) {
  ^bb0(%v: bf16, %bv: bf16, %o: bf16):
    %vf = arith.extf %v : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %s = arith.addf %vf, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<97x1536xbf16>
  return %y : tensor<97x1536xbf16>
}
