// RUN: qimeng-opt %s --split-input-file --qimeng-noalias-kernel-args | FileCheck %s

// Distinct buffers (two arguments, one allocation) are recorded by the
// positions of their aligned pointers in the kernel's LLVM signature (a
// rank-r memref takes 3 + 2r arguments); a buffer passed twice (%x and a
// view of it) is not.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME:  qimeng.noalias_args = array<i64: 11, 17>
module attributes {gpu.container_module} {
  func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %t = memref.alloc() : memref<64xf32>
    %v = memref.subview %x[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<64xf32>, %v : memref<32xf32, strided<[1]>>, %y : memref<64xf32>, %c1 : index, %t : memref<64xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>, %b: memref<32xf32, strided<[1]>>, %c: memref<64xf32>, %n: index, %d: memref<64xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// On the kernel's LLVM function, the recorded arguments become noalias.
// CHECK-LABEL: llvm.func @lowered(
// CHECK-SAME:  %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64
// CHECK-NOT:   qimeng.noalias_args
module {
  llvm.func @lowered(%p0: !llvm.ptr, %p1: !llvm.ptr, %o: i64) attributes {qimeng.noalias_args = array<i64: 1>} {
    llvm.return
  }
}
