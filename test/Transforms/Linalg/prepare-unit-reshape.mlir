// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// RUN: qimeng-run --cpu --verify --trials=2 --entry=expanded_max --shape=0=77x1000 %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=collapsed_sum %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=unit_chain %s 2>&1 | FileCheck %s --check-prefix=HOST
// A generic reads a per-row value through a reshape that only adds or
// drops a unit dimension: it reads the reshape's source instead, so the
// planner sees the data flow between the two ops (one kernel, not two).
// RUN: qimeng-opt %s --split-input-file --llm-plan --lower-to-nvvm 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// Two functions, one kernel each:
// KERNELS-COUNT-2: gpu.launch_func {{.*}}@{{(expanded_max|collapsed_sum)}}_kernel
// KERNELS-NOT: gpu.launch_func {{.*}}@{{(expanded_max|collapsed_sum)}}_kernel
// HOST: matches the reference in 2 trial(s)

// CHECK-LABEL: func.func @expanded_max
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]] : tensor<?x1000xf32>, tensor<?xf32>)
func.func @expanded_max(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %n = tensor.dim %x, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<?x1000xf32>) outs(%f : tensor<?xf32>) {
    ^bb0(%v: f32, %acc: f32): %r = arith.maximumf %v, %acc : f32
      linalg.yield %r : f32 } -> tensor<?xf32>
  %mx = tensor.expand_shape %m [[0, 1]] output_shape [%n, 1] : tensor<?xf32> into tensor<?x1xf32>
  %e2 = tensor.empty(%n) : tensor<?x1000xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mx : tensor<?x1000xf32>, tensor<?x1xf32>) outs(%e2 : tensor<?x1000xf32>) {
    ^bb0(%v: f32, %mm: f32, %o: f32): %d = arith.subf %v, %mm : f32
      linalg.yield %d : f32 } -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}

// -----

// CHECK-LABEL: func.func @collapsed_sum
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[SUM]] : tensor<37x129xf32>, tensor<37x1xf32>)
func.func @collapsed_sum(%x: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x1xf32>) -> tensor<37x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<37x129xf32>) outs(%f : tensor<37x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %r = arith.addf %v, %acc : f32
      linalg.yield %r : f32 } -> tensor<37x1xf32>
  %sc = tensor.collapse_shape %s [[0, 1]] : tensor<37x1xf32> into tensor<37xf32>
  %e2 = tensor.empty() : tensor<37x129xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %sc : tensor<37x129xf32>, tensor<37xf32>) outs(%e2 : tensor<37x129xf32>) {
    ^bb0(%v: f32, %ss: f32, %o: f32): %d = arith.divf %v, %ss : f32
      linalg.yield %d : f32 } -> tensor<37x129xf32>
  return %y : tensor<37x129xf32>
}

// -----

// torch's keepdim chain along a dimension of one: the sum of the expanded
// maximum along its 1 keeps the reshape (dropped, its reduction loop would
// have no size), and so does every reader of a value a reduction over a
// unit loop made.
// CHECK-LABEL: func.func @unit_chain
// CHECK:         tensor.expand_shape
// CHECK:         linalg.generic {{.*}} ins(%{{.+}} : tensor<12x1xf32>)
func.func @unit_chain(%x: tensor<12x1xf32>) -> tensor<12x1xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<12xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<12x1xf32>) outs(%f : tensor<12xf32>) {
    ^bb0(%v: f32, %acc: f32): %r = arith.maximumf %v, %acc : f32
      linalg.yield %r : f32 } -> tensor<12xf32>
  %mx = tensor.expand_shape %m [[0, 1]] output_shape [12, 1] : tensor<12xf32> into tensor<12x1xf32>
  %e1 = tensor.empty() : tensor<12x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<12x1xf32>) -> tensor<12x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%mx : tensor<12x1xf32>) outs(%f1 : tensor<12x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %r = arith.addf %v, %acc : f32
      linalg.yield %r : f32 } -> tensor<12x1xf32>
  return %s : tensor<12x1xf32>
}
