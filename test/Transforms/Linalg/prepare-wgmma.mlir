// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=wgmma=true | FileCheck %s

// A 16-bit matmul whose N is not a multiple of 8 (TMA's 16-byte rows): on a
// wgmma target only B's columns are padded, to 256; M stays dynamic (no
// split into 64-row tiles, A not copied) and the corner is gathered back.
// CHECK-LABEL: func.func @wgmma_n255
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<?x2048xf16>
// CHECK-NOT:   tensor<?x64x
// CHECK:       %[[BP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<2048x256xf16>)
// CHECK:       %[[P:.+]] = linalg.matmul ins(%[[A]], %[[BP]] : tensor<?x2048xf16>, tensor<2048x256xf16>) outs(%{{.+}} : tensor<?x256xf32>)
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<?x255xf32>)
// CHECK:         tensor.extract %[[P]]
func.func @wgmma_n255(%a: tensor<?x2048xf16>, %b: tensor<2048x255xf16>) -> tensor<?x255xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x2048xf16>
  %e = tensor.empty(%m) : tensor<?x255xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x255xf32>) -> tensor<?x255xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x2048xf16>, tensor<2048x255xf16>) outs(%f : tensor<?x255xf32>) -> tensor<?x255xf32>
  return %0 : tensor<?x255xf32>
}

// -----

// K = 100 (not a multiple of 8): A and B padded along K to 104, M and N
// (a multiple of 8) left alone; the bf16 result accumulated in f32, rounded
// once.
// CHECK-LABEL: func.func @wgmma_k100
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<300x104xbf16>, tensor<104x512xbf16>) outs(%{{.+}} : tensor<300x512xf32>)
// CHECK:       arith.truncf %{{.+}} : f32 to bf16
func.func @wgmma_k100(%a: tensor<300x100xbf16>, %b: tensor<100x512xbf16>) -> tensor<300x512xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<300x512xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<300x512xbf16>) -> tensor<300x512xbf16>
  %0 = linalg.matmul ins(%a, %b : tensor<300x100xbf16>, tensor<100x512xbf16>) outs(%f : tensor<300x512xbf16>) -> tensor<300x512xbf16>
  return %0 : tensor<300x512xbf16>
}

// -----

// Whole 16-byte rows: left to the wgmma plan as they are.
// CHECK-LABEL: func.func @wgmma_aligned
// CHECK-NOT:   tensor.pad
// CHECK-NOT:   tensor.extract
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x2048xf16>, tensor<2048x256xf16>)
func.func @wgmma_aligned(%a: tensor<?x2048xf16>, %b: tensor<2048x256xf16>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x2048xf16>, tensor<2048x256xf16>) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

// A Linear layer as torch-mlir writes it (its weight stored (n, k),
// transposed, then multiplied): on a wgmma target the matmul reads the
// weight (n, k) as it is; the transpose is gone (no copy of B).
// CHECK-LABEL: func.func @wgmma_linear_transposed_weight
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x1024xbf16> {{.*}}, %[[W:[^:]+]]: tensor<1536x1024xbf16>
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<?x1024xbf16>, tensor<1536x1024xbf16>) outs(%{{.+}} : tensor<?x1536xf32>)
// CHECK-NOT:   linalg.transpose
func.func @wgmma_linear_transposed_weight(%x: tensor<?x1024xbf16>, %w: tensor<1536x1024xbf16>) -> tensor<?x1536xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xbf16>
  %zero = arith.constant 0.0 : bf16
  %te = tensor.empty() : tensor<1024x1536xbf16>
  %wt = linalg.transpose ins(%w : tensor<1536x1024xbf16>) outs(%te : tensor<1024x1536xbf16>) permutation = [1, 0]
  %e = tensor.empty(%m) : tensor<?x1536xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<?x1536xbf16>) -> tensor<?x1536xbf16>
  %0 = linalg.matmul ins(%x, %wt : tensor<?x1024xbf16>, tensor<1024x1536xbf16>) outs(%f : tensor<?x1536xbf16>) -> tensor<?x1536xbf16>
  return %0 : tensor<?x1536xbf16>
}

// -----

// B read (n, k) by the matmul's maps: kept as it is on a wgmma target (an
// f32 result: the named op stays), whatever its N (its TMA rows are K
// long); with a K that is not a multiple of 8 it is copied transposed into
// its padded tiles (one gather that reads B (n, k); no transposed copy
// before it). A transpose whose result another op also reads stays
// for that op; the matmul reads the weight.
// CHECK-LABEL: func.func @wgmma_nk_maps
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.matmul indexing_maps = [{{.+}}] ins(%{{.+}}, %{{.+}} : tensor<512x256xf16>, tensor<383x256xf16>)
func.func @wgmma_nk_maps(%a: tensor<512x256xf16>, %b: tensor<383x256xf16>) -> tensor<512x383xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x383xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x383xf32>) -> tensor<512x383xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %b : tensor<512x256xf16>, tensor<383x256xf16>) outs(%f : tensor<512x383xf32>) -> tensor<512x383xf32>
  return %0 : tensor<512x383xf32>
}

// CHECK-LABEL: func.func @wgmma_nk_k_off_eight
// CHECK-SAME:    %[[B:[^:]+]]: tensor<384x250xf16>
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<256x384xf16>)
// CHECK:         tensor.extract %[[B]][%{{.+}}, %{{.+}}] : tensor<384x250xf16>
func.func @wgmma_nk_k_off_eight(%a: tensor<512x250xf16>, %b: tensor<384x250xf16>) -> tensor<512x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x384xf32>) -> tensor<512x384xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %b : tensor<512x250xf16>, tensor<384x250xf16>) outs(%f : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %0 : tensor<512x384xf32>
}

// CHECK-LABEL: func.func @wgmma_transpose_shared
// CHECK-SAME:    %[[W:[^:]+]]: tensor<384x256xf16>
// CHECK:       %[[T:.+]] = linalg.transpose
// CHECK:       %[[P:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[W]] : tensor<512x256xf16>, tensor<384x256xf16>)
// CHECK:       return %[[P]], %[[T]]
func.func @wgmma_transpose_shared(%a: tensor<512x256xf16>, %w: tensor<384x256xf16>) -> (tensor<512x384xf32>, tensor<256x384xf16>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<256x384xf16>
  %wt = linalg.transpose ins(%w : tensor<384x256xf16>) outs(%te : tensor<256x384xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<512x384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x384xf32>) -> tensor<512x384xf32>
  %0 = linalg.matmul ins(%a, %wt : tensor<512x256xf16>, tensor<256x384xf16>) outs(%f : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %0, %wt : tensor<512x384xf32>, tensor<256x384xf16>
}

// -----

// Batched keys that are a slice of a larger tensor (a fused K/V
// projection): the wgmma kernel reads batched operands only as whole
// buffers, so the transpose is not folded into the maps (the slice is
// copied transposed, and another plan takes the matmul).
// CHECK-LABEL: func.func @wgmma_sliced_keys
// CHECK:       tensor.extract_slice
// CHECK:       linalg.transpose
// CHECK:       linalg.batch_matmul
func.func @wgmma_sliced_keys(%q: tensor<4x256x64xf16>, %kv: tensor<4x256x128xf16>) -> tensor<4x256x256xf32> {
  %k = tensor.extract_slice %kv[0, 0, 0] [4, 256, 64] [1, 1, 1] : tensor<4x256x128xf16> to tensor<4x256x64xf16>
  %te = tensor.empty() : tensor<4x64x256xf16>
  %kt = linalg.transpose ins(%k : tensor<4x256x64xf16>) outs(%te : tensor<4x64x256xf16>) permutation = [0, 2, 1]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %0 = linalg.batch_matmul ins(%q, %kt : tensor<4x256x64xf16>, tensor<4x64x256xf16>) outs(%f : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  return %0 : tensor<4x256x256xf32>
}
