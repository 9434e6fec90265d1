// RUN: qimeng-opt %s --split-input-file --qimeng-split-reductions | FileCheck %s

// 16 rows of 16384: 16 warps would run; split into 64 parts of 256 (16 x 64
// warps), then the 64 partial maxima of each row are combined.
// CHECK-LABEL: func.func @rows
// CHECK:       %[[X:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [16, 64, 256]
// CHECK:       %[[P:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:       %[[PART:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<16x64x256xf32>) outs(%[[P]] : tensor<16x64xf32>)
// CHECK:         arith.maximumf
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PART]] : tensor<16x64xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:         arith.maximumf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rows(%x: tensor<16x16384xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16384xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A keepdim sum over dimension 1 (4096 outputs, one thread each): the unit
// output dimension is dropped, the reduction split into 32 parts of 8 next
// to it, so the innermost loop stays parallel.
// CHECK-LABEL: func.func @keepdim
// CHECK:       %[[C:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<16x1x256xf32> into tensor<16x256xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<16x32x8x256xf32>) outs(%{{.*}} : tensor<16x32x256xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<16x32x256xf32>) outs(%[[C]] : tensor<16x256xf32>)
// CHECK:       tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2]] output_shape [16, 1, 256]
#in = affine_map<(b, r, c) -> (b, r, c)>
#out = affine_map<(b, r, c) -> (b, 0, c)>
func.func @keepdim(%x: tensor<16x256x256xf32>, %y: tensor<16x1x256xf32>) -> tensor<16x1x256xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<16x256x256xf32>) outs(%y : tensor<16x1x256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16x1x256xf32>
  return %0 : tensor<16x1x256xf32>
}

// -----

// An odd length (1001 = 7 x 11 x 13), which no power of two divides: split
// into its largest divisor of parts at least 8 long, 91 parts of 11 (185
// outputs would otherwise each sum 1001 elements in one thread).
// CHECK-LABEL: func.func @keepdim_odd
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<5x91x11x37xi32>) outs(%{{.*}} : tensor<5x91x37xi32>)
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<5x91x37xi32>) outs(%{{.*}} : tensor<5x37xi32>)
func.func @keepdim_odd(%x: tensor<5x1001x37xi32>, %y: tensor<5x1x37xi32>) -> tensor<5x1x37xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(b, r, c) -> (b, r, c)>, affine_map<(b, r, c) -> (b, 0, c)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<5x1001x37xi32>) outs(%y : tensor<5x1x37xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %r = arith.addi %a, %acc : i32
    linalg.yield %r : i32
  } -> tensor<5x1x37xi32>
  return %0 : tensor<5x1x37xi32>
}

// -----

// A keepdim min over the rows into a fresh, filled result (torch-mlir's
// form): once the unit dimension is dropped, the fill is moved past the
// reshape and fills the collapsed output itself, which the plan can fuse;
// it keeps its attributes.
// CHECK-LABEL: func.func @keepdim_filled
// CHECK:       %[[E:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x32xf32> into tensor<32xf32>
// CHECK-NEXT:  %[[F:.+]] = linalg.fill {qimeng.tag = "start"} ins(%{{.*}} : f32) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<1024x32xf32>) outs(%[[F]] : tensor<32xf32>)
#kin = affine_map<(r, c) -> (r, c)>
#kout = affine_map<(r, c) -> (0, c)>
func.func @keepdim_filled(%x: tensor<8192x32xf32>) -> tensor<1x32xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill {qimeng.tag = "start"} ins(%inf : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %0 = linalg.generic {indexing_maps = [#kin, #kout], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8192x32xf32>) outs(%f : tensor<1x32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.minimumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}

// -----

// Three contiguous reduction loops (a layer norm's sum over C, H, W) are
// collapsed into one, then split; the broadcast input is kept as it is.
// CHECK-LABEL: func.func @collapsed
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<16x512x8192xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<16x512xf32>)
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<16x512xf32>) outs(%{{.*}} : tensor<16xf32>)
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#n4 = affine_map<(n, c, h, w) -> (n)>
func.func @collapsed(%x: tensor<16x64x256x256xf32>, %mu: tensor<16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [#x4, #n4, #n4], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %mu : tensor<16x64x256x256xf32>, tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A layer norm's variance as torch-mlir writes it: the mean comes in keepdim
// (16x1x1x1, read at constant 0 on the reduced dimensions). The unit
// dimensions are dropped, the three reduction loops collapsed, then split.
// CHECK-LABEL: func.func @broadcast_mean
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<16x512x8192xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<16x512xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<16x512xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:       tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2, 3]] output_shape [16, 1, 1, 1]
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#k4 = affine_map<(n, c, h, w) -> (n, 0, 0, 0)>
func.func @broadcast_mean(%x: tensor<16x64x256x256xf32>, %mu: tensor<16x1x1x1xf32>, %init: tensor<16x1x1x1xf32>) -> tensor<16x1x1x1xf32> {
  %0 = linalg.generic {indexing_maps = [#x4, #k4, #k4], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %mu : tensor<16x64x256x256xf32>, tensor<16x1x1x1xf32>) outs(%init : tensor<16x1x1x1xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16x1x1x1xf32>
  return %0 : tensor<16x1x1x1xf32>
}

// -----

// An instance norm's sum (batch 1, a reduction loop of one iteration, then
// 7168 channels, each over 512 x 512 pixels): 7168 warps are enough, so it is
// not split, but it is brought to one reduction loop, which the warp plan
// needs (else each channel's sum would be one thread's). So is a dynamic
// batch.
// CHECK-LABEL: func.func @instance
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<7168x262144xf32>) outs(%{{.*}} : tensor<7168xf32>)
// CHECK-NOT:   linalg.generic
// CHECK-LABEL: func.func @dynamic_batch
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<?x3969xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK-NOT:   linalg.generic
#i4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#o4 = affine_map<(n, c, h, w) -> (0, c, 0, 0)>
func.func @instance(%x: tensor<1x7168x512x512xf32>, %init: tensor<1x7168x1x1xf32>) -> tensor<1x7168x1x1xf32> {
  %0 = linalg.generic {indexing_maps = [#i4, #o4], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x7168x512x512xf32>) outs(%init : tensor<1x7168x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x7168x1x1xf32>
  return %0 : tensor<1x7168x1x1xf32>
}
#i3 = affine_map<(n, h, w) -> (n, h, w)>
#o3 = affine_map<(n, h, w) -> (n)>
func.func @dynamic_batch(%x: tensor<?x63x63xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [#i3, #o3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<?x63x63xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Enough outputs (4096 rows, a warp each, fill half of sm_90's 132 x 1024
// threads): unchanged. So is a reduction with two outputs (argmax).
// CHECK-LABEL: func.func @enough
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<4096x8192xf32>) outs(%{{.*}} : tensor<4096xf32>)
// CHECK-LABEL: func.func @two_outputs
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<16x16384xf32>) outs(%{{.*}}, %{{.*}} : tensor<16xf32>, tensor<16xi64>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @enough(%x: tensor<4096x8192xf32>, %init: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x8192xf32>) outs(%init : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func @two_outputs(%x: tensor<16x16384xf32>, %v: tensor<16xf32>, %i: tensor<16xi64>) -> (tensor<16xf32>, tensor<16xi64>) {
  %0:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16384xf32>) outs(%v, %i : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%a: f32, %best: f32, %at: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %b = arith.select %gt, %a, %best : f32
    %k = arith.select %gt, %ji, %at : i64
    linalg.yield %b, %k : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi64>
}

// -----

// A long, thin matmul (256 x 256 outputs are 16 blocks of 64 x 64, K =
// 131072): K split into 16 parts as a batched matmul over A's parts (copied
// batch-first) and B's (a reshape), then summed into the output.
// CHECK-LABEL: func.func @long_matmul
// CHECK:       %[[AE:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [256, 16, 8192]
// CHECK:       %[[AT:.+]] = linalg.transpose ins(%[[AE]] : tensor<256x16x8192xf32>) outs(%{{.*}} : tensor<16x256x8192xf32>) permutation = [1, 0, 2]
// CHECK:       %[[BE:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [16, 8192, 256]
// CHECK:       %[[P:.+]] = linalg.batch_matmul ins(%[[AT]], %[[BE]] : tensor<16x256x8192xf32>, tensor<16x8192x256xf32>) outs(%{{.*}} : tensor<16x256x256xf32>)
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<16x256x256xf32>) outs(%{{.*}} : tensor<256x256xf32>)
// CHECK-NOT:   linalg.matmul
func.func @long_matmul(%a: tensor<256x131072xf32>, %b: tensor<131072x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x131072xf32>, tensor<131072x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// Few outputs but a short K (128 x 512 outputs, K = 1024): the matmul keeps
// its own plan (and the fusion of its consumer).
// CHECK-LABEL: func.func @short_matmul
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.matmul
func.func @short_matmul(%a: tensor<128x1024xf32>, %b: tensor<1024x512xf32>, %c: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x1024xf32>, tensor<1024x512xf32>) outs(%c : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
}

// -----

// The reductions of a row-wise kernel the planner runs as one (a softmax over
// few short rows, after qimeng-prepare) are left whole.
// CHECK-LABEL: func.func @row_kernel
// CHECK-NOT:   tensor.expand_shape
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]
#rk_id = affine_map<(d0, d1) -> (d0, d1)>
#rk_row = affine_map<(d0, d1) -> (d0)>
func.func @row_kernel(%x: tensor<16x1000xf32>) -> tensor<16x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#rk_id, #rk_row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1000xf32>) outs(%m0 : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#rk_id, #rk_row, #rk_row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<16x1000xf32>, tensor<16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %mx: f32, %b: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.addf %x2, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %y0 = tensor.empty() : tensor<16x1000xf32>
  %y = linalg.generic {indexing_maps = [#rk_id, #rk_row, #rk_row, #rk_id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<16x1000xf32>, tensor<16xf32>, tensor<16xf32>) outs(%y0 : tensor<16x1000xf32>) {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.divf %x2, %sm : f32
    linalg.yield %r : f32
  } -> tensor<16x1000xf32>
  return %y : tensor<16x1000xf32>
}

// -----

// A full reduction whose second operand broadcasts along the rows (a hinge
// loss): its two reduction loops cannot be collapsed into one, so the rows
// become a parallel loop of partial sums (one a warp) and a second
// reduction combines them, instead of one thread adding 2^24 elements.
// CHECK-LABEL: func.func @broadcast_full_sum
// CHECK:       %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[P:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<4096xf32>)
// CHECK:       %[[PART:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%[[P]] : tensor<4096xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[PART]] : tensor<4096xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK:         arith.addf
#xy = affine_map<(d0, d1) -> (d0, d1)>
#y = affine_map<(d0, d1) -> (d1)>
#none = affine_map<(d0, d1) -> ()>
func.func @broadcast_full_sum(%x: tensor<4096x4096xf32>, %t: tensor<4096xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [#xy, #y, #none], iterator_types = ["reduction", "reduction"]}
      ins(%x, %t : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A vector times a (k, n) matrix (a Linear on one row, its weight stored
// (k, n)): the reduction loop is innermost, but the matrix holds it a column
// at a time, so each of the 4096 outputs gets a thread, not a warp (16
// blocks). The reduction loop goes outermost and splits as a column sum
// does: 64 parts of 64 rows, each part's threads along N (the matrix read
// along its rows), then the 64 partial sums of each output added.
// CHECK-LABEL: func.func @vector_times_matrix
// CHECK:       %[[B:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [64, 64, 4096]
// CHECK:       %[[P:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x4096xf32>)
// CHECK:       %[[PART:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.+}}, %[[B]] : tensor<64x64xf32>, tensor<64x64x4096xf32>) outs(%[[P]] : tensor<64x4096xf32>)
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[PART]] : tensor<64x4096xf32>) outs(%{{.*}} : tensor<4096xf32>)
func.func @vector_times_matrix(%x: tensor<4096xf32>, %b: tensor<4096x4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = linalg.vecmat ins(%x, %b : tensor<4096xf32>, tensor<4096x4096xf32>) outs(%y : tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
