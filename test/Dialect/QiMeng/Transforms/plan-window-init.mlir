// RUN: qimeng-opt %s --split-input-file --qimeng-plan | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --llm-plan 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// Windows run with the op that fills their output: a convolution's bias
// broadcast and a max pool's -inf fill are tiled like the window's parallel
// loops and fused into its blocks (one kernel each). The convolution reads 27
// inputs an output (fewer than the 32 that make it a matmul, im2col.mlir).

// CHECK-LABEL: qimeng.plan @conv_bias
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1, 16, 16] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [0, 1, 1, 1] to thread
// CHECK-NEXT:    qimeng.tile "conv0" [1, 1, 16, 16, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
// CHECK-NEXT:    qimeng.fuse "conv0" producer "elementwise0"
// CHECK-NEXT:  }
// KERNELS-LABEL: func.func @conv_bias
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_bias(%x: tensor<2x3x18x18xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<2x16x16x16xf32> {
  %e = tensor.empty() : tensor<2x16x16x16xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<2x16x16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x16x16x16xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x3x18x18xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  return %r : tensor<2x16x16x16xf32>
}

// -----

// CHECK-LABEL: qimeng.plan @maxpool
// CHECK-NEXT:    qimeng.tile "fill0" [1, 4, 4, 4] to block
// CHECK-NEXT:    qimeng.tile "fill0" [0, 1, 1, 1] to thread
// CHECK-NEXT:    qimeng.tile "pool0" [1, 4, 4, 4, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "pool0" [0, 1, 1, 1, 0, 0] to thread
// CHECK-NEXT:    qimeng.fuse "pool0" producer "fill0"
// CHECK-NEXT:  }
// KERNELS-LABEL: func.func @maxpool
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @maxpool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %win : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// -----

// A depthwise convolution as written (channels its fourth loop, the output
// stored (n, c, h, w)): its bias is not in loop order, no fusion. After
// qimeng-prepare (in --llm-plan), whose loops follow the output, one kernel.
// CHECK-LABEL: qimeng.plan @depthwise_bias
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
// KERNELS-LABEL: func.func @depthwise_bias
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
#bias1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @depthwise_bias(%x: tensor<1x4x10x10xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %init = linalg.generic {indexing_maps = [#bias1, #id1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x4x8x8xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}

// -----

// A dynamic batch sized from one argument (the result built from the input's
// size): still one kernel.
// CHECK-LABEL: qimeng.plan @maxpool_dynamic
// CHECK:         qimeng.fuse "pool0" producer "fill0"
// KERNELS-LABEL: func.func @maxpool_dynamic
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
func.func @maxpool_dynamic(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %n = tensor.dim %x, %c0 : tensor<?x3x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty(%n) : tensor<?x3x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %win : tensor<?x3x8x8xf32>, tensor<2x2xf32>) outs(%f : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  return %r : tensor<?x3x4x4xf32>
}

// -----

// Two dynamically shaped arguments (an output argument beside the input):
// their sizes cannot be proven one; not fused.
// CHECK-LABEL: qimeng.plan @maxpool_two_sources
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
// KERNELS-LABEL: func.func @maxpool_two_sources
// KERNELS-COUNT-2: gpu.launch
func.func @maxpool_two_sources(%x: tensor<?x3x8x8xf32>, %out: tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%out : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %win : tensor<?x3x8x8xf32>, tensor<2x2xf32>) outs(%f : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  return %r : tensor<?x3x4x4xf32>
}

// -----

// A dense convolution reading a padded copy of its input (144 reads an
// output: the padding is not fused) into an output argument: its batch
// loop's size comes from the input, its bias fill's from the output
// argument; they cannot be proven one, so no fusion, and the kernel compiles
// (the fusion failed to apply and the kernel was rejected before).
// CHECK-LABEL: qimeng.plan @conv_padded_outarg
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
// KERNELS-LABEL: func.func @conv_padded_outarg
// KERNELS-COUNT-3: gpu.launch
#cb = affine_map<(d0, d1, d2, d3) -> (d1)>
#cid = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_padded_outarg(%x: tensor<?x16x12x12xf32>, %w: tensor<8x16x3x3xf32>, %b: tensor<8xf32>, %out: tensor<?x8x12x12xf32>) -> tensor<?x8x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<?x16x12x12xf32> to tensor<?x16x14x14xf32>
  %init = linalg.generic {indexing_maps = [#cb, #cid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%out : tensor<?x8x12x12xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<?x8x12x12xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<?x16x14x14xf32>, tensor<8x16x3x3xf32>) outs(%init : tensor<?x8x12x12xf32>) -> tensor<?x8x12x12xf32>
  return %r : tensor<?x8x12x12xf32>
}

// -----

// A column sum (the reduction along the outer loop, the innermost loop
// parallel) gives each thread whole outputs: its fill is tiled like the
// sum's parallel loop and fused into its blocks. So is the dynamic one, whose
// columns come from the input alone. The column sum's 1000 outputs are too few
// for the GPU: --llm-plan splits it (split-reductions.mlir) into a partial
// and a combining sum, two kernels with their fills in them (four before).
// CHECK-LABEL: qimeng.plan @column_sum
// CHECK-NEXT:    qimeng.tile "fill0" [256] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1] to thread
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 256] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 1] to thread
// CHECK-NEXT:    qimeng.fuse "reduction0" producer "fill0"
// CHECK-NEXT:  }
// KERNELS-LABEL: func.func @column_sum
// KERNELS-COUNT-2: gpu.launch
// KERNELS-NOT:     gpu.launch
#col_in = affine_map<(r, c) -> (r, c)>
#col_out = affine_map<(r, c) -> (c)>
func.func @column_sum(%x: tensor<64x1000xi32>) -> tensor<1000xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1000xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1000xi32>) -> tensor<1000xi32>
  %r = linalg.generic {indexing_maps = [#col_in, #col_out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x1000xi32>) outs(%f : tensor<1000xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<1000xi32>
  return %r : tensor<1000xi32>
}

// -----

// CHECK-LABEL: qimeng.plan @middle_max_dynamic
// CHECK:         qimeng.fuse "reduction0" producer "fill0"
// KERNELS-LABEL: func.func @middle_max_dynamic
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
#mid_in = affine_map<(b, r, c) -> (b, r, c)>
#mid_out = affine_map<(b, r, c) -> (b, c)>
func.func @middle_max_dynamic(%x: tensor<?x48x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %ninf = arith.constant 0xFF800000 : f32
  %b = tensor.dim %x, %c0 : tensor<?x48x?xf32>
  %c = tensor.dim %x, %c2 : tensor<?x48x?xf32>
  %e = tensor.empty(%b, %c) : tensor<?x?xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#mid_in, #mid_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<?x48x?xf32>) outs(%f : tensor<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A keepdim max over a dynamic middle dimension (split-reductions leaves
// it whole, so its output keeps the unit dimension: `(b, 0, c)`): the fill
// is tiled like the max's parallel loops, its unit dimension untiled, and
// runs in the max's kernel.
// CHECK-LABEL: qimeng.plan @keepdim_max_dynamic
// CHECK-NEXT:    qimeng.tile "fill0" [4, 0, 64] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1, 0, 1] to thread
// CHECK-NEXT:    qimeng.tile "reduction0" [4, 0, 64] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0, 1] to thread
// CHECK-NEXT:    qimeng.fuse "reduction0" producer "fill0"
// KERNELS-LABEL: func.func @keepdim_max_dynamic
// KERNELS-COUNT-1: gpu.launch
// KERNELS-NOT:     gpu.launch
#keep_in = affine_map<(b, r, c) -> (b, r, c)>
#keep_out = affine_map<(b, r, c) -> (b, 0, c)>
func.func @keepdim_max_dynamic(%x: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x1x64xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  %r = linalg.generic {indexing_maps = [#keep_in, #keep_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<8x?x64xf32>) outs(%f : tensor<8x1x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8x1x64xf32>
  return %r : tensor<8x1x64xf32>
}

// -----

// Not fused: an outer reduction whose output is written transposed (its
// parallel loops out of order), and one whose fill has a second user.
// CHECK-LABEL: qimeng.plan @outer_transposed
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
// KERNELS-LABEL: func.func @outer_transposed
#tr_in = affine_map<(b, r, c) -> (b, r, c)>
#tr_out = affine_map<(b, r, c) -> (c, b)>
func.func @outer_transposed(%x: tensor<8x48x40xf32>) -> tensor<40x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x8xf32>) -> tensor<40x8xf32>
  %r = linalg.generic {indexing_maps = [#tr_in, #tr_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<8x48x40xf32>) outs(%f : tensor<40x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<40x8xf32>
  return %r : tensor<40x8xf32>
}

// -----

// CHECK-LABEL: qimeng.plan @outer_shared_fill
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
// KERNELS-LABEL: func.func @outer_shared_fill
#sh_in = affine_map<(r, c) -> (r, c)>
#sh_out = affine_map<(r, c) -> (c)>
func.func @outer_shared_fill(%x: tensor<64x1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000xf32>) -> tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [#sh_in, #sh_out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x1000xf32>) outs(%f : tensor<1000xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %r, %f : tensor<1000xf32>, tensor<1000xf32>
}
