// RUN: qimeng-opt %s --qimeng-prepare -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: qimeng-run --cpu --verify --trials=2 --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST
// A padded matmul's corner is added to its bias in place (outs(bias)); a
// consumer that reads it broadcast over three rows must not fuse it as it
// is: the bias, an output of the fused op at the broadcast's map, would be
// updated once per row (bias + 3 x product on the host, a race on the GPU).
// The corner reads the bias as an input and writes a fresh tensor instead,
// then fuses (and the bias's broadcast with it).
// CHECK-LABEL: func.func @bias_then_broadcast
// CHECK-SAME:    %[[BIAS:[^:]+]]: tensor<100xf32>
// CHECK-NOT:     linalg.broadcast
// CHECK:         %[[PRODUCT:.*]] = linalg.matmul
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[BIAS]] : tensor<100xf32>)
// CHECK-SAME:      outs(%{{.*}} : tensor<100x3x100xf32>)
// CHECK:           tensor.extract %[[PRODUCT]]
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// HOST: @bias_then_broadcast matches the reference in 2 trial(s)
func.func @bias_then_broadcast(%a: tensor<100x100xf32>, %b: tensor<100x100xf32>, %bias: tensor<100xf32>) -> tensor<100x3x100xf32> {
  %e = tensor.empty() : tensor<100x100xf32>
  %bb = linalg.broadcast ins(%bias : tensor<100xf32>) outs(%e : tensor<100x100xf32>) dimensions = [0]
  %m = linalg.matmul ins(%a, %b : tensor<100x100xf32>, tensor<100x100xf32>) outs(%bb : tensor<100x100xf32>) -> tensor<100x100xf32>
  %e3 = tensor.empty() : tensor<100x3x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<100x100xf32>) outs(%e3 : tensor<100x3x100xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<100x3x100xf32>
  return %r : tensor<100x3x100xf32>
}
