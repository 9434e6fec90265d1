// RUN: qimeng-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(qimeng-sync-managed-allocs))' | FileCheck %s

// An async managed allocation: the host waits for its dependency, allocates
// synchronously, and the ops after it wait on a fresh token.
// CHECK-LABEL: func.func @managed
// CHECK:       %[[D:.+]] = gpu.wait async
// CHECK-NEXT:  gpu.wait [%[[D]]]
// CHECK-NEXT:  %[[M:.+]] = gpu.alloc host_shared () : memref<64xf32>
// CHECK-NEXT:  %[[T:.+]] = gpu.wait async
// CHECK-NEXT:  gpu.dealloc async [%[[T]]] %[[M]]
func.func @managed() {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] host_shared () : memref<64xf32>
  %1 = gpu.dealloc async [%t] %m : memref<64xf32>
  gpu.wait [%1]
  return
}

// -----

// Device allocations stay asynchronous.
// CHECK-LABEL: func.func @device
// CHECK:       gpu.alloc async [%{{.+}}] () : memref<64xf32>
func.func @device() {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] () : memref<64xf32>
  %1 = gpu.dealloc async [%t] %m : memref<64xf32>
  gpu.wait [%1]
  return
}
