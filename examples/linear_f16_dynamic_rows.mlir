// An f16 nn.Linear as torch-mlir writes it with a dynamic batch of rows: the
// weight stored [out, in] and transposed by a linalg.transpose, a zero-filled
// tensor.empty, then the bias. Its 500 outputs are four tile columns; with
// few rows they leave most SMs idle, and K = 4096 is long. The number of rows
// is known only at run time, so on sm_90 qimeng-prepare versions the matmul on
// it: up to 128 rows K is split into 16 parts, up to 512 into 8, up to 1024
// into 4, up to 1920 into 2 (each a wgmma kernel of the parts and a kernel
// that adds them with the bias); up to 8320 rows K stays whole on 128-wide
// tiles, more rows take 256-wide ones, the bias in the wgmma kernel's
// epilogue.
#rows = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @linear_rows(%x: tensor<?x4096xf16>, %w: tensor<500x4096xf16>,
                       %b: tensor<500xf16>) -> tensor<?x500xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xf16>
  %zero = arith.constant 0.0 : f16
  %te = tensor.empty() : tensor<4096x500xf16>
  %wt = linalg.transpose ins(%w : tensor<500x4096xf16>)
                         outs(%te : tensor<4096x500xf16>) permutation = [1, 0]
  %empty = tensor.empty(%m) : tensor<?x500xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%empty : tensor<?x500xf16>) -> tensor<?x500xf16>
  %mm = linalg.matmul ins(%x, %wt : tensor<?x4096xf16>, tensor<4096x500xf16>)
                      outs(%acc : tensor<?x500xf16>) -> tensor<?x500xf16>
  %y = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x500xf16>, tensor<500xf16>) outs(%empty : tensor<?x500xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %s = arith.addf %v, %bv : f16
    linalg.yield %s : f16
  } -> tensor<?x500xf16>
  return %y : tensor<?x500xf16>
}
