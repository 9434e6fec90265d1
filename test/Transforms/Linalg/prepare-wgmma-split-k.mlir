// RUN: qimeng-opt %s --split-input-file --qimeng-prepare="wgmma=true num-sms=132" | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare="wgmma=true" | FileCheck %s --check-prefix=NOSMS

// A Linear on 97 rows as torch-mlir writes it (the weight transposed): the
// transpose is folded into the maps first, then K = 4096 is split into 8
// parts (12 output tiles on 132 SMs): A and the weight are reshaped in
// place, the parts' products go to an f32 (8, 97, 1536) tensor, and one
// elementwise op adds the 8 parts and the bias and rounds to bf16.
// CHECK-DAG:   #[[$MA:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
// CHECK-DAG:   #[[$MB:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
// CHECK-DAG:   #[[$MC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @split_linear_nk
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<97x4096xbf16> {{.*}}, %[[W:[^:]+]]: tensor<1536x4096xbf16>
// CHECK-NOT:   linalg.transpose
// CHECK-DAG:   %[[XP:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [97, 8, 512]
// CHECK-DAG:   %[[WP:.+]] = tensor.expand_shape %[[W]] {{\[}}[0], [1, 2]] output_shape [1536, 8, 512]
// CHECK:       %[[Z:.+]] = linalg.fill {{.*}} -> tensor<8x97x1536xf32>
// CHECK:       %[[P:.+]] = linalg.generic {indexing_maps = [#[[$MA]], #[[$MB]], #[[$MC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:    ins(%[[XP]], %[[WP]] : tensor<97x8x512xbf16>, tensor<1536x8x512xbf16>) outs(%[[Z]] : tensor<8x97x1536xf32>)
// CHECK-COUNT-8: tensor.extract_slice %[[P]]
// CHECK:       linalg.generic
// CHECK-SAME:    outs(%{{.+}} : tensor<97x1536xbf16>)
// CHECK-COUNT-7: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:         arith.extf
// CHECK:         arith.addf
// CHECK:         arith.truncf
// CHECK-NOT:   linalg.generic
// NOSMS-LABEL: func.func @split_linear_nk
// NOSMS-NOT:   tensor.expand_shape
func.func @split_linear_nk(%x: tensor<97x4096xbf16>, %w: tensor<1536x4096xbf16>, %b: tensor<1536xbf16>) -> tensor<97x1536xbf16> {
  %zero = arith.constant 0.0 : bf16
  %te = tensor.empty() : tensor<4096x1536xbf16>
  %wt = linalg.transpose ins(%w : tensor<1536x4096xbf16>) outs(%te : tensor<4096x1536xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<97x1536xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<97x1536xbf16>) -> tensor<97x1536xbf16>
  %0 = linalg.matmul ins(%x, %wt : tensor<97x4096xbf16>, tensor<4096x1536xbf16>) outs(%f : tensor<97x1536xbf16>) -> tensor<97x1536xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<97x1536xbf16>, tensor<1536xbf16>) outs(%e : tensor<97x1536xbf16>) {
  ^bb0(%v: bf16, %bv: bf16, %o: bf16):
    %vf = arith.extf %v : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %s = arith.addf %vf, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<97x1536xbf16>
  return %y : tensor<97x1536xbf16>
}

// -----

// B stored (k, n), an f32 output passed in and accumulated into: K = 8192
// in 16 parts (6 output tiles), B's parts its rows (s, k, n); the sum adds
// the parts to the output's values.
// CHECK-LABEL: func.func @split_kn_accumulate
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<256x8192xf16> {{.*}}, %[[B:[^:]+]]: tensor<8192x384xf16> {{.*}}, %[[C:[^:]+]]: tensor<256x384xf32>
// CHECK-DAG:   tensor.expand_shape %[[A]] {{\[}}[0], [1, 2]] output_shape [256, 16, 512]
// CHECK-DAG:   tensor.expand_shape %[[B]] {{\[}}[0, 1], [2]] output_shape [16, 512, 384]
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<16x256x384xf32>)
// CHECK:       linalg.generic {{.*}} outs(%[[C]] : tensor<256x384xf32>)
// CHECK:       ^bb0({{.*}}, %[[OUT:.+]]: f32):
// CHECK-COUNT-15: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:    %[[R:.+]] = arith.addf %[[OUT]], %{{.+}} : f32
// CHECK-NEXT:    linalg.yield %[[R]]
func.func @split_kn_accumulate(%a: tensor<256x8192xf16>, %b: tensor<8192x384xf16>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x8192xf16>, tensor<8192x384xf16>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}

// -----

// Not split:
//  - a short K (8 K steps): the partial sums would cost more than the SMs
//    the 64 tiles leave idle;
//  - enough tiles for every SM;
//  - a K that is not a multiple of the 64-deep K step (4000);
//  - A a slice of a larger tensor (the kernel reads A's parts as columns of
//    one whole matrix).
// CHECK-LABEL: func.func @no_split
// CHECK-NOT:   tensor.expand_shape
// CHECK:       return
func.func @no_split(%a: tensor<1024x512xbf16>, %b: tensor<512x1024xbf16>,
                    %a2: tensor<2048x2048xbf16>, %b2: tensor<2048x2048xbf16>,
                    %a4: tensor<128x4000xbf16>, %b4: tensor<4000x256xbf16>,
                    %a5: tensor<256x8192xbf16>, %b5: tensor<4096x256xbf16>)
    -> (tensor<1024x1024xf32>, tensor<2048x2048xf32>, tensor<128x256xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1024x1024xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<1024x512xbf16>, tensor<512x1024xbf16>) outs(%f1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e2 = tensor.empty() : tensor<2048x2048xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r2 = linalg.matmul ins(%a2, %b2 : tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) outs(%f2 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %e4 = tensor.empty() : tensor<128x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r4 = linalg.matmul ins(%a4, %b4 : tensor<128x4000xbf16>, tensor<4000x256xbf16>) outs(%f4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %s5 = tensor.extract_slice %a5[0, 0] [128, 4096] [1, 1] : tensor<256x8192xbf16> to tensor<128x4096xbf16>
  %r5 = linalg.matmul ins(%s5, %b5 : tensor<128x4096xbf16>, tensor<4096x256xbf16>) outs(%f4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r1, %r2, %r4, %r5 : tensor<1024x1024xf32>, tensor<2048x2048xf32>, tensor<128x256xf32>, tensor<128x256xf32>
}

// -----

// A dynamic M (a batch of rows) has no tile count to judge: the matmul is
// versioned on M instead, an scf.if nest whose versions each hold M's sizes
// that plan alike (up to 128 rows: 16 parts; 512: 8; 1024: 4; 1920: 2;
// 8320: K whole on 128-wide tiles, which the matmul's bound tells the
// planner), a dynamic M's plan in the last else. Each branch gets its own
// copies of the zero fill and of the bias (the elementwise consumer), so
// each plan fuses it: with the sum of the parts, or into the matmul's
// epilogue.
// CHECK-LABEL: func.func @versions_by_rows
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x4096xf16>
// CHECK:       %[[FITS:.+]] = arith.cmpi ule, %[[M:.+]], %c128
// CHECK:       scf.if %[[FITS]] -> (tensor<?x500xf16>)
// CHECK:         tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, 16, 256]
// CHECK:         linalg.fill {{.*}} -> tensor<16x?x500xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<16x?x500xf32>) attrs = {qimeng.max_rows = 128 : i64}
// CHECK-COUNT-16: tensor.extract_slice
// CHECK:         %[[SUM16:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<?x500xf16>)
// CHECK:         scf.yield %[[SUM16]]
// CHECK:       } else {
// CHECK:         arith.cmpi ule, %[[M]], %c512
// CHECK:         tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, 8, 512]
// CHECK:         arith.cmpi ule, %[[M]], %c1024
// CHECK:         tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, 4, 1024]
// CHECK:         arith.cmpi ule, %[[M]], %c1920
// CHECK:         tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, 2, 2048]
// CHECK:         arith.cmpi ule, %[[M]], %c8320
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %{{.+}} : tensor<?x4096xf16>, tensor<500x4096xf16>) {{.*}} attrs = {qimeng.max_rows = 8320 : i64}
// CHECK:       } else {
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[FILL:.+]] = linalg.fill {{.*}} -> tensor<?x500xf32>
// CHECK:         %[[MM:.+]] = linalg.generic {{.*}} ins(%[[X]], %{{.+}} : tensor<?x4096xf16>, tensor<500x4096xf16>) outs(%[[FILL]] : tensor<?x500xf32>) {
// CHECK:         %[[BIAS:.+]] = linalg.generic {{.*}} ins(%[[MM]], %{{.+}} : tensor<?x500xf32>, tensor<500xf16>)
// CHECK:         scf.yield %[[BIAS]]
// CHECK:       } {qimeng.row_versions}
// NOSMS-LABEL: func.func @versions_by_rows
// NOSMS-NOT:   scf.if
#rows = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @versions_by_rows(%x: tensor<?x4096xf16>, %w: tensor<500x4096xf16>, %b: tensor<500xf16>) -> tensor<?x500xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xf16>
  %zero = arith.constant 0.0 : f16
  %te = tensor.empty() : tensor<4096x500xf16>
  %wt = linalg.transpose ins(%w : tensor<500x4096xf16>) outs(%te : tensor<4096x500xf16>) permutation = [1, 0]
  %empty = tensor.empty(%m) : tensor<?x500xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%empty : tensor<?x500xf16>) -> tensor<?x500xf16>
  %mm = linalg.matmul ins(%x, %wt : tensor<?x4096xf16>, tensor<4096x500xf16>) outs(%acc : tensor<?x500xf16>) -> tensor<?x500xf16>
  %y = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x500xf16>, tensor<500xf16>) outs(%empty : tensor<?x500xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %s = arith.addf %v, %bv : f16
    linalg.yield %s : f16
  } -> tensor<?x500xf16>
  return %y : tensor<?x500xf16>
}
