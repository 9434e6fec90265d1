// RUN: qimeng-opt %s --split-input-file --verify-diagnostics --qimeng-reinterpret-dynamic-expands | FileCheck %s
// The view then lowers (MLIR 22's expand-strided-metadata crashed on the
// reshape itself); `not` for the refused strided case below.
// RUN: not qimeng-opt %s --split-input-file --qimeng-reinterpret-dynamic-expands --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts 2>/dev/null | FileCheck %s --check-prefix=LLVM
// LLVM: llvm.func @rows
// LLVM-NOT: memref.

// The rows of a 2-D matmul's result expanded back into a dynamic batch and
// sequence: a row-major view over those sizes.
// CHECK-LABEL: func.func @rows
// CHECK-SAME:    (%[[M:.+]]: memref<?x256xf32>, %[[B:.+]]: index, %[[S:.+]]: index)
// CHECK:         %[[STRIDE:.+]] = arith.muli %c256, %[[S]]
// CHECK-NOT:     arith.muli
// CHECK:         %[[V:.+]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [%[[B]], %[[S]], 256], strides: [%[[STRIDE]], 256, 1]
// CHECK:         return %[[V]]
// One dynamic size per group is left to upstream.
// CHECK-LABEL: func.func @one_dynamic
// CHECK:         memref.expand_shape
func.func @rows(%m: memref<?x256xf32>, %b: index, %s: index) -> memref<?x?x256xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%b, %s, 256] : memref<?x256xf32> into memref<?x?x256xf32>
  return %e : memref<?x?x256xf32>
}
func.func @one_dynamic(%m: memref<?x256xf32>, %b: index) -> memref<?x4x256xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%b, 4, 256] : memref<?x256xf32> into memref<?x4x256xf32>
  return %e : memref<?x4x256xf32>
}

// -----

// A strided buffer is refused at the reshape, not crashed on.
func.func @strided(%m: memref<?x256xf32, strided<[512, 1]>>, %b: index, %s: index) -> memref<?x?x256xf32, strided<[?, 512, 1]>> {
  // expected-error @+1 {{splits a dimension into several dynamic sizes of a buffer with a non-identity layout}}
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%b, %s, 256] : memref<?x256xf32, strided<[512, 1]>> into memref<?x?x256xf32, strided<[?, 512, 1]>>
  return %e : memref<?x?x256xf32, strided<[?, 512, 1]>>
}
