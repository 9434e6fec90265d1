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
