// An f32 Linear + bias over a dynamic batch of sequences as torch-mlir
// writes it: the result's rows expanded back into two dynamic sizes (which
// crashed MLIR 22's expand-strided-metadata).
#x3 = affine_map<(b, s, n) -> (b, s, n)>
#bias = affine_map<(b, s, n) -> (n)>
func.func @linear_3d_dyn(%x: tensor<?x?x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<?x?x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %batch = tensor.dim %x, %c0 : tensor<?x?x128xf32>
  %seq = tensor.dim %x, %c1 : tensor<?x?x128xf32>
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x128xf32> into tensor<?x128xf32>
  %n = tensor.dim %rows, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%n) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %mm = linalg.matmul ins(%rows, %w : tensor<?x128xf32>, tensor<128x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [%batch, %seq, 256] : tensor<?x256xf32> into tensor<?x?x256xf32>
  %e3 = tensor.empty(%batch, %seq) : tensor<?x?x256xf32>
  %y = linalg.generic {indexing_maps = [#x3, #bias, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %b : tensor<?x?x256xf32>, tensor<256xf32>) outs(%e3 : tensor<?x?x256xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<?x?x256xf32>
  return %y : tensor<?x?x256xf32>
}

