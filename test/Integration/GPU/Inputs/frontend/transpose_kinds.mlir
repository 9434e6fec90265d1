// Transposes of each element width (torch-mlir's permute, StableHLO's
// transpose), one with an elementwise op on the transposed values, and one
// whose sizes the shared-memory tiles do not divide (the scalar plan).
func.func @transposes(%a: tensor<96x256xf32>, %b: tensor<4x64x384xf16>, %c: tensor<128x64xi8>,
                      %d: tensor<32x96xf64>, %e: tensor<64x160xbf16>, %f: tensor<72x200xf32>)
    -> (tensor<256x96xf32>, tensor<4x384x64xf16>, tensor<64x128xi8>, tensor<96x32xf64>,
        tensor<160x64xbf16>, tensor<200x72xf32>) {
  %ea = tensor.empty() : tensor<256x96xf32>
  %ta = linalg.transpose ins(%a : tensor<96x256xf32>) outs(%ea : tensor<256x96xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %ra = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ta : tensor<256x96xf32>) outs(%ea : tensor<256x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x96xf32>
  %eb = tensor.empty() : tensor<4x384x64xf16>
  %tb = linalg.transpose ins(%b : tensor<4x64x384xf16>) outs(%eb : tensor<4x384x64xf16>) permutation = [0, 2, 1]
  %ec = tensor.empty() : tensor<64x128xi8>
  %tc = linalg.transpose ins(%c : tensor<128x64xi8>) outs(%ec : tensor<64x128xi8>) permutation = [1, 0]
  %ed = tensor.empty() : tensor<96x32xf64>
  %td = linalg.transpose ins(%d : tensor<32x96xf64>) outs(%ed : tensor<96x32xf64>) permutation = [1, 0]
  %ee = tensor.empty() : tensor<160x64xbf16>
  %te = linalg.transpose ins(%e : tensor<64x160xbf16>) outs(%ee : tensor<160x64xbf16>) permutation = [1, 0]
  %ef = tensor.empty() : tensor<200x72xf32>
  %tf = linalg.transpose ins(%f : tensor<72x200xf32>) outs(%ef : tensor<200x72xf32>) permutation = [1, 0]
  return %ra, %tb, %tc, %td, %te, %tf : tensor<256x96xf32>, tensor<4x384x64xf16>, tensor<64x128xi8>, tensor<96x32xf64>, tensor<160x64xbf16>, tensor<200x72xf32>
}
