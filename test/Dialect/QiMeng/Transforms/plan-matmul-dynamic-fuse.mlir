// RUN: qimeng-opt %s --split-input-file --qimeng-prepare --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --llm-plan 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// A matmul with a dynamic M, written the way torch-mlir writes it (a fresh,
// zero-filled result): qimeng-prepare pads it and splits M into 64-row tiles,
// a dynamic batch loop. The fill of the tiled accumulator is sized from the
// same argument as the matmul's loops, so it is fused into the SIMT matmul's
// blocks, like a static one's: four kernels (the padded copies of A and B,
// the matmul, the copy out of the padded result), not five.

// CHECK-LABEL: qimeng.plan @dynamic_m
// CHECK:         qimeng.tile "fill0" [1, 64, 64] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1, 4, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "fill0" width 4
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 64, 64, 0] to block
// CHECK:         qimeng.fuse "contraction0" producer "fill0"
// KERNELS-LABEL: func.func @dynamic_m
// KERNELS-COUNT-4: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @dynamic_m(%a: tensor<?x509xf32>, %b: tensor<509x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x509xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x509xf32>, tensor<509x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// Into an output argument: qimeng-prepare's padded accumulator is a fresh
// buffer sized from A, filled in its place, so the fill is fused all the same.
// CHECK-LABEL: qimeng.plan @dynamic_m_outarg
// CHECK:         qimeng.fuse "contraction0" producer "fill0"
// KERNELS-LABEL: func.func @dynamic_m_outarg
// KERNELS-COUNT-4: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @dynamic_m_outarg(%a: tensor<?x509xf32>, %b: tensor<509x256xf32>, %out: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x509xf32>, tensor<509x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
