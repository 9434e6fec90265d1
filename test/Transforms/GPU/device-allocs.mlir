// RUN: qimeng-opt %s --split-input-file --qimeng-device-allocs --verify-diagnostics | FileCheck %s

// A temporary only a kernel uses becomes device memory, freed where it was;
// host-only ones stay.
// CHECK-LABEL: func.func @temp
// CHECK:       %[[T:.+]] = gpu.alloc  () : memref<64xf32>
// CHECK:       %[[H:.+]] = memref.alloc() : memref<8xf32>
// CHECK:       gpu.launch
// CHECK:         memref.store %{{.*}}, %[[T]]
// CHECK:       memref.dealloc %[[H]]
// CHECK:       gpu.dealloc  %[[T]] : memref<64xf32>
// CHECK-NOT:   memref.dealloc %[[T]]
func.func @temp(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64xf32>
  %h = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %t[%tx] : memref<64xf32>
    gpu.terminator
  }
  memref.dealloc %h : memref<8xf32>
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// Nothing frees it: freed at the end of its block, after the last kernel.
// CHECK-LABEL: func.func @unfreed
// CHECK:       %[[T:.+]] = gpu.alloc  () : memref<64xf32>
// CHECK:       gpu.launch
// CHECK:       gpu.launch
// CHECK:       gpu.dealloc  %[[T]] : memref<64xf32>
// CHECK-NEXT:  return
func.func @unfreed(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %t[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%tx] : memref<64xf32>
    memref.store %v, %x[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Returned to the caller: device memory the caller owns (not freed here).
// CHECK-LABEL: func.func @returned
// CHECK:       %[[T:.+]] = gpu.alloc  () : memref<64xf32>
// CHECK-NOT:   gpu.dealloc
// CHECK:       return %[[T]]
func.func @returned(%x: memref<64xf32>) -> memref<64xf32> {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %t[%tx] : memref<64xf32>
    gpu.terminator
  }
  return %t : memref<64xf32>
}

// -----

// Returned through a view, with a dynamic size: device memory too.
// CHECK-LABEL: func.func @returned_view
// CHECK:       %[[T:.+]] = gpu.alloc  (%{{.*}}) : memref<?x4xf32>
// CHECK-NOT:   gpu.dealloc
// CHECK:       %[[V:.+]] = memref.collapse_shape %[[T]]
// CHECK:       return %[[V]]
func.func @returned_view(%x: memref<64xf32>, %n: index) -> memref<?xf32> {
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %t[%tx, %tx] : memref<?x4xf32>
    gpu.terminator
  }
  %flat = memref.collapse_shape %t [[0, 1]] : memref<?x4xf32> into memref<?xf32>
  return %flat : memref<?xf32>
}

// -----

// Read by the host code after the kernel: managed memory.
// CHECK-LABEL: func.func @host_read
// CHECK:       %[[T:.+]] = gpu.alloc host_shared () : memref<64xf32>
// CHECK:       memref.load %[[T]]
func.func @host_read(%x: memref<64xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %t[%tx] : memref<64xf32>
    gpu.terminator
  }
  %r = memref.load %t[%c0] : memref<64xf32>
  return %r : f32
}

// -----

// Through a view, with a dynamic size.
// CHECK-LABEL: func.func @view
// CHECK:       %[[T:.+]] = gpu.alloc  (%{{.*}}) : memref<?xf32>
// CHECK:       memref.subview %[[T]]
func.func @view(%n: index) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?xf32>
  %s = memref.subview %t[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %s[%tx] : memref<4xf32, strided<[1]>>
    gpu.terminator
  }
  return
}

// -----

func.func @space() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{is used by a GPU kernel but has a layout, memory space or symbols that device allocation does not support}}
  %t = memref.alloc() : memref<4xf32, 1>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %t[%tx] : memref<4xf32, 1>
    gpu.terminator
  }
  return
}

// -----

// A TMA descriptor built on the host takes only the buffer's device address
// (through a cast): device memory, not managed memory.
// CHECK-LABEL: func.func @tma_operand
// CHECK:       %[[T:.+]] = gpu.alloc  () : memref<64x64xf16>
// CHECK:       memref.cast %[[T]]
// CHECK:       nvgpu.tma.create.descriptor
// CHECK:       gpu.dealloc  %[[T]] : memref<64x64xf16>
func.func @tma_operand(%x: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %t = memref.alloc() : memref<64x64xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx, %ty] : memref<64x64xf16>
    memref.store %v, %t[%tx, %ty] : memref<64x64xf16>
    gpu.terminator
  }
  %cast = memref.cast %t : memref<64x64xf16> to memref<*xf16>
  %d = nvgpu.tma.create.descriptor %cast box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// A constant global (a table torch-mlir folded into the program) that a
// kernel reads: a device copy made where the global is taken, freed after
// the kernels; the host's own reads keep the global.
// CHECK-LABEL: func.func @table
// CHECK:       %[[G:.+]] = memref.get_global @table_values : memref<4xf32>
// CHECK-NEXT:  %[[D:.+]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:  gpu.memcpy  %[[D]], %[[G]] : memref<4xf32>, memref<4xf32>
// CHECK:       gpu.launch
// CHECK:         memref.load %[[D]]
// CHECK:       gpu.dealloc  %[[D]] : memref<4xf32>
// CHECK-NEXT:  return
memref.global "private" constant @table_values : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @table(%y: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %g = memref.get_global @table_values : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %g[%tx] : memref<4xf32>
    memref.store %v, %y[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
