// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --llm-plan --lower-to-nvvm 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// RUN: qimeng-run --cpu --verify --trials=2 --entry=add_exp %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=scale_rows_transposed %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=lone_and_matmul_operand %s 2>&1 | FileCheck %s --check-prefix=HOST
// Named elementwise ops (linalg.elementwise, map, broadcast, transpose: the
// forms StableHLO and newer frontends write) fuse with their elementwise
// neighbours like torch-mlir's generics: one kernel per chain.
// HOST: matches the reference in 2 trial(s)

// CHECK-LABEL: func.func @add_exp
// CHECK-NOT:     linalg.elementwise
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           math.exp
// CHECK-NOT:     linalg.generic
// KERNELS-LABEL: llvm.func @add_exp
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT:   gpu.launch_func
// KERNELS:       gpu.binary
func.func @add_exp(%a: tensor<37x129xf32>, %b: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %e = tensor.empty() : tensor<37x129xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %b : tensor<37x129xf32>, tensor<37x129xf32>) outs(%e : tensor<37x129xf32>) -> tensor<37x129xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%0 : tensor<37x129xf32>) outs(%e : tensor<37x129xf32>) -> tensor<37x129xf32>
  return %1 : tensor<37x129xf32>
}

// -----

// A broadcast, a map and a transpose: one generic that reads the row vector
// at its own map and writes the transposed product.
// CHECK-LABEL: func.func @scale_rows_transposed
// CHECK-SAME:    %[[A:[^:]+]]: tensor<17x31xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<31xf32>
// CHECK-NOT:     linalg.broadcast
// CHECK-NOT:     linalg.map
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<17x31xf32>, tensor<31xf32>)
// CHECK-SAME:      outs(%{{.+}} : tensor<31x17xf32>)
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// KERNELS-LABEL: llvm.func @scale_rows_transposed
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT:   gpu.launch_func
// KERNELS:       gpu.binary
func.func @scale_rows_transposed(%a: tensor<17x31xf32>, %b: tensor<31xf32>) -> tensor<31x17xf32> {
  %e = tensor.empty() : tensor<17x31xf32>
  %bb = linalg.broadcast ins(%b : tensor<31xf32>) outs(%e : tensor<17x31xf32>) dimensions = [0]
  %s = linalg.map { arith.mulf } ins(%a, %bb : tensor<17x31xf32>, tensor<17x31xf32>) outs(%e : tensor<17x31xf32>)
  %et = tensor.empty() : tensor<31x17xf32>
  %t = linalg.transpose ins(%s : tensor<17x31xf32>) outs(%et : tensor<31x17xf32>) permutation = [1, 0]
  return %t : tensor<31x17xf32>
}

// -----

// A lone named op (whose rows give a warp its vectors: see
// prepare-collapse-elementwise.mlir), and a transpose a matmul reads, stay
// named (the matmul patterns read through the transpose).
// CHECK-LABEL: func.func @lone_and_matmul_operand
// CHECK:         linalg.transpose
// CHECK:         linalg.map
func.func @lone_and_matmul_operand(%a: tensor<16x8xf32>, %w: tensor<16x8xf32>, %x: tensor<16x256xf32>) -> (tensor<16x16xf32>, tensor<16x256xf32>) {
  %z = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %wt : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x256xf32>
  %n = linalg.map { math.absf } ins(%x : tensor<16x256xf32>) outs(%e2 : tensor<16x256xf32>)
  return %m, %n : tensor<16x16xf32>, tensor<16x256xf32>
}
