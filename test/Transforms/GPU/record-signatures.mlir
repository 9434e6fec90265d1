// --qimeng-record-signatures (the first step of --lower-to-nvvm) records the
// memref signature and the written arguments, through views; both survive
// the lowering to llvm.func, where qimeng-run reads them.
// RUN: qimeng-opt --qimeng-record-signatures %s | FileCheck %s
// RUN: qimeng-opt --lower-to-nvvm %s | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @copy_row
// CHECK-SAME: qimeng.signature = (memref<4x8xf32>, memref<8xf32>) -> ()
// CHECK-SAME: qimeng.written_args = array<i1: true, false>
// LOWERED: llvm.func @copy_row
// LOWERED-SAME: qimeng.signature = (memref<4x8xf32>, memref<8xf32>) -> ()
// LOWERED-SAME: qimeng.written_args = array<i1: true, false>
func.func @copy_row(%dst: memref<4x8xf32>, %src: memref<8xf32>) {
  %row = memref.subview %dst[1, 0] [1, 8] [1, 1]
      : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  memref.copy %src, %row : memref<8xf32> to memref<8xf32, strided<[1], offset: 8>>
  return
}

// CHECK-LABEL: func.func @fresh
// CHECK-SAME: qimeng.signature = (memref<8xf32>) -> memref<8xf32>
// CHECK-SAME: qimeng.written_args = array<i1: false>
func.func @fresh(%x: memref<8xf32>) -> memref<8xf32> {
  %y = memref.alloc() : memref<8xf32>
  memref.copy %x, %y : memref<8xf32> to memref<8xf32>
  return %y : memref<8xf32>
}

// Private functions are not entry points.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: qimeng.signature
func.func private @helper(%x: memref<8xf32>) {
  return
}
