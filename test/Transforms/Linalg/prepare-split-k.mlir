// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=num-sms=132 | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s --check-prefix=NOSPLIT

// Split-K: 32 x 256 outputs are 4 blocks of the SIMT plan, leaving most of
// 132 SMs idle; K = 509 becomes 4 parts of 128 (zeros past 509). A and B
// are gathered into (4, 32, 128) and (4, 128, 256), a batched product
// writes the 4 partial products, and the copy into the output sums them.
// Without the SMs (num-sms=0) only K is padded.
// CHECK-LABEL: func.func @split_k
// CHECK:       %[[AP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x32x128xf32>)
// CHECK:         arith.muli
// CHECK:         tensor.extract
// CHECK:         arith.select
// CHECK:       %[[BP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x128x256xf32>)
// CHECK:       %[[Z:.+]] = linalg.fill {{.*}} -> tensor<4x32x256xf32>
// CHECK:       %[[P:.+]] = linalg.batch_matmul ins(%[[AP]], %[[BP]] : tensor<4x32x128xf32>, tensor<4x128x256xf32>) outs(%[[Z]] : tensor<4x32x256xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<32x256xf32>)
// CHECK:         %[[I:.+]] = linalg.index 0
// CHECK:         %[[J:.+]] = linalg.index 1
// CHECK:         %[[P0:.+]] = tensor.extract %[[P]][%c0, %[[I]], %[[J]]]
// CHECK:         %[[P1:.+]] = tensor.extract %[[P]][%c1, %[[I]], %[[J]]]
// CHECK:         %[[S1:.+]] = arith.addf %[[P0]], %[[P1]]
// CHECK:         %[[P2:.+]] = tensor.extract %[[P]][%c2, %[[I]], %[[J]]]
// CHECK:         %[[S2:.+]] = arith.addf %[[S1]], %[[P2]]
// CHECK:         %[[P3:.+]] = tensor.extract %[[P]][%c3, %[[I]], %[[J]]]
// CHECK:         %[[S3:.+]] = arith.addf %[[S2]], %[[P3]]
// CHECK-NEXT:    linalg.yield %[[S3]] : f32
// CHECK:       return %[[R]]
// NOSPLIT-LABEL: func.func @split_k
// NOSPLIT-NOT:   linalg.batch_matmul
// NOSPLIT:       linalg.matmul {{.*}} outs(%{{.+}} : tensor<32x256xf32>)
func.func @split_k(%a: tensor<32x509xf32>, %b: tensor<509x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x509xf32>, tensor<509x256xf32>) outs(%f : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %0 : tensor<32x256xf32>
}

// -----

// A dynamic M counts as one tile of 64 rows: A goes into (4, M / 64, 64,
// 128) tiles, B into (4, 128, 256) parts that the M tiles share, and the
// copy reads the parts at (s, row / 64, row % 64, col).
// CHECK-DAG:   #[[$A:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG:   #[[$B:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>
// CHECK-DAG:   #[[$C:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @split_k_dynamic_m
// CHECK:       %[[AP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x?x64x128xf32>)
// CHECK:       %[[BP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x128x256xf32>)
// CHECK:       %[[P:.+]] = linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[AP]], %[[BP]] : tensor<4x?x64x128xf32>, tensor<4x128x256xf32>) outs(%{{.+}} : tensor<4x?x64x256xf32>)
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<?x256xf32>)
// CHECK:         %[[Q:.+]] = arith.divui %{{.+}}, %c64
// CHECK:         %[[R:.+]] = arith.remui %{{.+}}, %c64
// CHECK:         tensor.extract %[[P]][%c0, %[[Q]], %[[R]], %{{.+}}] : tensor<4x?x64x256xf32>
// CHECK:         tensor.extract %[[P]][%c3, %[[Q]], %[[R]], %{{.+}}] : tensor<4x?x64x256xf32>
func.func @split_k_dynamic_m(%a: tensor<?x509xf32>, %b: tensor<509x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x509xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x509xf32>, tensor<509x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

// Accumulating into an output argument it does not fill: the sum of the
// parts is added to it.
// CHECK-LABEL: func.func @split_k_accumulate
// CHECK:       linalg.batch_matmul {{.*}} -> tensor<2x64x128xf32>
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<64x128xf32>)
// CHECK-NEXT:  ^bb0(%[[OUT:.+]]: f32):
// CHECK:         %[[S:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:    %[[T:.+]] = arith.addf %[[S]], %[[OUT]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
func.func @split_k_accumulate(%a: tensor<64x300xf32>, %b: tensor<300x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x300xf32>, tensor<300x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// No split where the output's tiles fill half the SMs or more (16 x 16
// blocks), where K is shorter than two parts of 128, over a dynamic batch
// (as many batches, as many blocks) and for f16 (the tensor cores take it).
// CHECK-LABEL: func.func @no_split
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       linalg.matmul {{.*}} -> tensor<1024x1024xf32>
// CHECK:       linalg.matmul {{.*}} -> tensor<32x256xf32>
// CHECK:       linalg.batch_matmul {{.*}} -> tensor<?x64x128xf32>
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       linalg.matmul {{.*}} -> tensor<64x128xf32>
// CHECK:       return
func.func @no_split(%a: tensor<1024x509xf32>, %b: tensor<509x1024xf32>, %c: tensor<1024x1024xf32>,
                    %a2: tensor<32x200xf32>, %b2: tensor<200x256xf32>, %c2: tensor<32x256xf32>,
                    %a3: tensor<?x64x509xf32>, %b3: tensor<?x509x128xf32>, %c3: tensor<?x64x128xf32>,
                    %a4: tensor<64x509xf16>, %b4: tensor<509x128xf16>, %c4: tensor<64x128xf32>)
    -> (tensor<1024x1024xf32>, tensor<32x256xf32>, tensor<?x64x128xf32>, tensor<64x128xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<1024x509xf32>, tensor<509x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %1 = linalg.matmul ins(%a2, %b2 : tensor<32x200xf32>, tensor<200x256xf32>) outs(%c2 : tensor<32x256xf32>) -> tensor<32x256xf32>
  %2 = linalg.batch_matmul ins(%a3, %b3 : tensor<?x64x509xf32>, tensor<?x509x128xf32>) outs(%c3 : tensor<?x64x128xf32>) -> tensor<?x64x128xf32>
  %3 = linalg.matmul ins(%a4, %b4 : tensor<64x509xf16>, tensor<509x128xf16>) outs(%c4 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0, %1, %2, %3 : tensor<1024x1024xf32>, tensor<32x256xf32>, tensor<?x64x128xf32>, tensor<64x128xf32>
}

// -----

// A static batch counts its batches as blocks: 2 x 64 x 128 outputs are 4
// blocks, so K = 509 goes into 4 parts, the parts before the batch, (4, 2,
// 64, 128) for A. f64 splits too (into a batched matmul the FP64 tensor
// cores take).
// CHECK-LABEL: func.func @split_k_batched_f64
// CHECK:       %[[P:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x2x64x128xf32>, tensor<4x2x128x128xf32>) outs(%{{.+}} : tensor<4x2x64x128xf32>)
// CHECK:       tensor.extract %[[P]][%c3, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<4x2x64x128xf32>
// CHECK:       linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<4x32x128xf64>, tensor<4x128x256xf64>) outs(%{{.+}} : tensor<4x32x256xf64>)
func.func @split_k_batched_f64(%a: tensor<2x64x509xf32>, %b: tensor<2x509x128xf32>, %c: tensor<2x64x128xf32>,
                               %a2: tensor<32x509xf64>, %b2: tensor<509x256xf64>, %c2: tensor<32x256xf64>)
    -> (tensor<2x64x128xf32>, tensor<32x256xf64>) {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x64x509xf32>, tensor<2x509x128xf32>) outs(%c : tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
  %1 = linalg.matmul ins(%a2, %b2 : tensor<32x509xf64>, tensor<509x256xf64>) outs(%c2 : tensor<32x256xf64>) -> tensor<32x256xf64>
  return %0, %1 : tensor<2x64x128xf32>, tensor<32x256xf64>
}

// -----

// Whole tiles are not copied, so not split here: a long, thin product on
// whole tiles is qimeng-split-reductions' (B's parts a reshape of B).
// CHECK-LABEL: func.func @whole_tiles_not_split
// CHECK-NOT:   linalg.generic
// CHECK:       linalg.matmul {{.*}} -> tensor<64x128xf32>
func.func @whole_tiles_not_split(%a: tensor<64x512xf32>, %b: tensor<512x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x512xf32>, tensor<512x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
