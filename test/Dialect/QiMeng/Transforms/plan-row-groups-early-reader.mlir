// RUN: qimeng-opt %s --qimeng-prepare --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --llm-plan --qimeng-realize-plans -o /dev/null
// A row sum and the elementwise op on its result would make one row
// kernel, run where the elementwise op is, the sum fused into it. But a
// kernel in between (on a slice of the sums) reads the sums: fused, the sum
// would run after that reader. So no row kernel is formed (a blocked scan's
// block totals are read this way; fused, they read a buffer not yet
// written).
// CHECK-LABEL: qimeng.plan @early_reader
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>
func.func @early_reader(%x: tensor<4096x256xf32>) -> (tensor<4096xf32>, tensor<2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %a = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4096x256xf32>) outs(%f : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %half = tensor.extract_slice %a[0] [2048] [1] : tensor<4096xf32> to tensor<2048xf32>
  %e2 = tensor.empty() : tensor<2048xf32>
  %d = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%half : tensor<2048xf32>) outs(%e2 : tensor<2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2048xf32>
  %c = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%a : tensor<4096xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<4096xf32>
  return %c, %d : tensor<4096xf32>, tensor<2048xf32>
}
