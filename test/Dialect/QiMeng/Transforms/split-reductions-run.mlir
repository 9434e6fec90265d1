// RUN: qimeng-opt %s --qimeng-split-reductions -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: for f in broadcast_mean instance group_variance full_keepdim channel_bias_mean odd_middle_sum; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// RUN: qimeng-opt %s --llm-plan --lower-to-nvvm -o %t.gpu.mlir
// RUN: grep -q gpu.binary %t.gpu.mlir
// Reductions written the way torch-mlir writes norms (keepdim results and
// broadcast means read at constant 0, a unit batch loop, odd sizes), split
// or brought to one reduction loop, compute what they computed before.
// HOST: matches the reference in 2 trial(s)

// CHECK-LABEL: func.func @broadcast_mean
// CHECK:       iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<5x{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<5xf32>)
// CHECK-LABEL: func.func @instance
// CHECK:       iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<7x99xf32>)
// CHECK-LABEL: func.func @group_variance
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<3x4x{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<3x4xf32>)
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#k4 = affine_map<(n, c, h, w) -> (n, 0, 0, 0)>
func.func @broadcast_mean(%x: tensor<5x6x16x32xf32>, %mu: tensor<5x1x1x1xf32>) -> tensor<5x1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x1x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<5x1x1x1xf32>) -> tensor<5x1x1x1xf32>
  %0 = linalg.generic {indexing_maps = [#x4, #k4, #k4], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %mu : tensor<5x6x16x32xf32>, tensor<5x1x1x1xf32>) outs(%init : tensor<5x1x1x1xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5x1x1x1xf32>
  return %0 : tensor<5x1x1x1xf32>
}

#o4 = affine_map<(n, c, h, w) -> (0, c, 0, 0)>
func.func @instance(%x: tensor<1x7x9x11xf32>, %init: tensor<1x7x1x1xf32>) -> tensor<1x7x1x1xf32> {
  %0 = linalg.generic {indexing_maps = [#x4, #o4], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x7x9x11xf32>) outs(%init : tensor<1x7x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x7x1x1xf32>
  return %0 : tensor<1x7x1x1xf32>
}

// A group norm's variance: 3 x 4 groups of 2 channels x 8 x 32 pixels.
#x5 = affine_map<(n, g, c, h, w) -> (n, g, c, h, w)>
#k5 = affine_map<(n, g, c, h, w) -> (n, g, 0, 0, 0)>
func.func @group_variance(%x: tensor<3x4x2x8x32xf32>, %mu: tensor<3x4x1x1x1xf32>) -> tensor<3x4x1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x1x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4x1x1x1xf32>) -> tensor<3x4x1x1x1xf32>
  %0 = linalg.generic {indexing_maps = [#x5, #k5, #k5], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %mu : tensor<3x4x2x8x32xf32>, tensor<3x4x1x1x1xf32>) outs(%init : tensor<3x4x1x1x1xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3x4x1x1x1xf32>
  return %0 : tensor<3x4x1x1x1xf32>
}

// A sum of everything (a loss, keepdim): its unit output dimensions stay
// (the plans map parallel loops to threads); the outer reduction loops are
// peeled into partial sums, a row a warp reduces.
// CHECK-LABEL: func.func @full_keepdim
// CHECK:       iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<7x33x64xf32>) outs(%{{.*}} : tensor<1x1x1x7x33xf32>)
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x1x1x7x33xf32>) outs(%{{.*}} : tensor<1x1x1xf32>)
#f3 = affine_map<(a, b, c) -> (a, b, c)>
#z3 = affine_map<(a, b, c) -> (0, 0, 0)>
func.func @full_keepdim(%x: tensor<7x33x64xf32>) -> tensor<1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %0 = linalg.generic {indexing_maps = [#f3, #z3], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<7x33x64xf32>) outs(%init : tensor<1x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// A mean over channels and pixels of a convolution's output with its bias
// added (the bias read along the channels only): the channel loop is
// peeled into partial sums, the pixel loops collapse into one row each.
// CHECK-LABEL: func.func @channel_bias_mean
// CHECK:       iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4x6x315xf32>, tensor<6xf32>) outs(%{{.*}} : tensor<4x6xf32>)
// CHECK:       iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x6xf32>) outs(%{{.*}} : tensor<4xf32>)
#c5 = affine_map<(n, c, d, h, w) -> (n, c, d, h, w)>
#b5 = affine_map<(n, c, d, h, w) -> (c)>
#n5 = affine_map<(n, c, d, h, w) -> (n)>
func.func @channel_bias_mean(%x: tensor<4x6x5x7x9xf32>, %bias: tensor<6xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#c5, #b5, #n5], iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %bias : tensor<4x6x5x7x9xf32>, tensor<6xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %v = arith.addf %a, %b : f32
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A middle-dimension sum of odd length (1001 = 7 x 11 x 13): 91 parts of 11.
// CHECK-LABEL: func.func @odd_middle_sum
// CHECK:       ins(%{{.*}} : tensor<5x91x11x37xi32>)
func.func @odd_middle_sum(%x: tensor<5x1001x37xi32>) -> tensor<5x1x37xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<5x1x37xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<5x1x37xi32>) -> tensor<5x1x37xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>, affine_map<(b, r, c) -> (b, 0, c)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<5x1001x37xi32>) outs(%f : tensor<5x1x37xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<5x1x37xi32>
  return %r : tensor<5x1x37xi32>
}
