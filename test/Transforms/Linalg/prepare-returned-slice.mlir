// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// RUN: qimeng-run --cpu --verify --trials=1 %s --entry=strided 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=1 --shape=0=37x32 %s --entry=input_slice 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-opt %s --llm-plan --lower-to-nvvm 2>/dev/null | FileCheck %s --check-prefix=NVVM

// A returned strided slice of a computed tensor: copied by linalg.copy into
// a fresh tensor (a kernel), not by the host (`memrefCopy`, which the JIT
// does not provide and which would read device memory on the CPU).
// CHECK-LABEL: func.func @strided
// CHECK:       %[[SUM:.+]] = linalg.add
// CHECK:       %[[S:.+]] = tensor.extract_slice %[[SUM]][0, 1] [64, 45] [1, 2]
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<64x45xf32>
// CHECK:       %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<64x45xf32>) outs(%[[E]] : tensor<64x45xf32>)
// CHECK:       return %[[C]]
// HOST:        matches the reference in 1 trial(s)
// NVVM-NOT:    memrefCopy
// NVVM:        gpu.binary
// NVVM-NOT:    memrefCopy
func.func @strided(%a: tensor<64x96xf32>, %b: tensor<64x96xf32>) -> tensor<64x45xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %s = linalg.add ins(%a, %b : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = tensor.extract_slice %s[0, 1] [64, 45] [1, 2] : tensor<64x96xf32> to tensor<64x45xf32>
  return %r : tensor<64x45xf32>
}

// -----

// A slice of an input with a dynamic size, returned next to a computed
// result: the slice is copied (its sizes from the input), the other result
// left as it is.
// CHECK-LABEL: func.func @input_slice
// CHECK:       %[[S:.+]] = tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 16] [1, 1]
// CHECK:       %[[E:.+]] = tensor.empty(%{{.*}}) : tensor<?x16xf32>
// CHECK:       %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<?x16xf32>) outs(%[[E]] : tensor<?x16xf32>)
// CHECK:       return %[[C]], %{{.*}} : tensor<?x16xf32>, tensor<?x32xf32>
func.func @input_slice(%a: tensor<?x32xf32>) -> (tensor<?x16xf32>, tensor<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x32xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %m = linalg.mul ins(%a, %a : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %r = tensor.extract_slice %a[0, 0] [%n, 16] [1, 1] : tensor<?x32xf32> to tensor<?x16xf32>
  return %r, %m : tensor<?x16xf32>, tensor<?x32xf32>
}
