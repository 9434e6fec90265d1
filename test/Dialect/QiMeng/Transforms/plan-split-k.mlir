// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=num-sms=132 --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --llm-plan 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// A matmul with a dynamic M and a K of 509 over 256 columns: qimeng-prepare
// splits M into 64-row tiles and K into 4 parts (prepare-split-k.mlir). The
// product's leading loops (the parts, the M tiles) are batch loops of the
// SIMT plan: one of each per block, the parts' loop whole in each thread
// (threads map at most three loops), the fill of the partial products fused.
// Four kernels: the copies of A and B, the product, the sum of the parts.
// CHECK-LABEL: qimeng.plan @split_k_dynamic_m
// CHECK:         qimeng.tile "fill0" [1, 1, 64, 64] to block
// CHECK-NEXT:    qimeng.tile "fill0" [0, 1, 4, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "fill0" width 4
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 1, 64, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "contraction0" [0, 0, 0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "contraction0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "contraction0" [0, 1, 4, 4, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "contraction0" width 4
// CHECK-NEXT:    qimeng.pipeline "contraction0" stages 2
// CHECK:         qimeng.fuse "contraction0" producer "fill0"
// KERNELS-LABEL: func.func @split_k_dynamic_m
// KERNELS-COUNT-4: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @split_k_dynamic_m(%a: tensor<?x509xf32>, %b: tensor<509x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x509xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x509xf32>, tensor<509x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// A batched matmul with a dynamic M: its M tiles share B's batch, which B
// indexes without them. Two batches of 4 column tiles (a dynamic M counts
// as one row of tiles) are 8 blocks: K = 300 goes into 2 parts of 160. The
// product is a batched matmul of the SIMT plan over three batch loops (the
// parts, the batch, the M tiles), not a memory-bound op; threads tile the
// innermost of them.
// CHECK-LABEL: qimeng.plan @batched_dynamic_m
// CHECK:         qimeng.tile "contraction0" [1, 1, 1, 64, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "contraction0" [0, 0, 0, 0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "contraction0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "contraction0" [0, 0, 1, 4, 4, 0] to thread
// KERNELS-LABEL: func.func @batched_dynamic_m
// KERNELS-COUNT-4: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @batched_dynamic_m(%a: tensor<2x?x300xf32>, %b: tensor<2x300x200xf32>) -> tensor<2x?x200xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<2x?x300xf32>
  %e = tensor.empty(%m) : tensor<2x?x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x200xf32>) -> tensor<2x?x200xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x?x300xf32>, tensor<2x300x200xf32>) outs(%f : tensor<2x?x200xf32>) -> tensor<2x?x200xf32>
  return %r : tensor<2x?x200xf32>
}
