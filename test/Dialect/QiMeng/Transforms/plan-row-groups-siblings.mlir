// RUN: qimeng-opt %s --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --llm-plan --qimeng-realize-plans -o /dev/null
// Two row sums that start from one fill (qimeng-prepare would give each its
// own; --qimeng-plan alone sees the shared one). A row group grows through
// the shared fill to both sums, but the first sum feeds neither the second
// nor anything after it: it cannot be fused into the second's kernel as its
// producer. And the fill, which it reads, cannot be fused there either, so
// no row kernel is formed: each op is planned on its own (this plan fused
// the first sum into the second before, which the plan's check rejected).
// CHECK-LABEL: qimeng.plan @two_sums
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_sums(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}
