// The built-in planner, per operator family (deterministic plans).
// RUN: qimeng-opt %s --split-input-file --qimeng-plan | FileCheck %s

// Matmul (f32): 64x64 block tiles, K step 16, A/B in shared memory, 4x4 per
// thread, 128-bit vectors, the K loop pipelined in 2 stages.
// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.matmul {qimeng.tag = "matmul0"}
// CHECK-LABEL: qimeng.plan @matmul provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "matmul0" [0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "matmul0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "matmul0" [4, 4, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "matmul0" width 4
// CHECK-NEXT:    qimeng.pipeline "matmul0" stages 2
// CHECK-NEXT:  }
func.func @matmul(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  return
}

// -----

// Sizes that the tiles do not divide: the same tiles, partial at the border
// (computed without vectors).
// CHECK-LABEL: qimeng.plan @odd provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "matmul0" [0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "matmul0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "matmul0" [4, 4, 0] to thread
// CHECK-NEXT:  }
func.func @odd(%A: memref<100x77xf32>, %B: memref<77x40xf32>, %C: memref<100x40xf32>) {
  linalg.matmul ins(%A, %B : memref<100x77xf32>, memref<77x40xf32>) outs(%C : memref<100x40xf32>)
  return
}

// -----

// Elementwise: 256 threads per block, one float4 per thread.
// CHECK-LABEL: qimeng.plan @relu provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1024] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:  }
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x4096xf32>) outs(%y : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// Elementwise with a keepdim operand read at constant 0 (softmax's last
// step: each row divided by its sum): the same float4 plan, the sum read
// once per vector.
// CHECK-LABEL: qimeng.plan @divide_by_row provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1024] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:  }
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
func.func @divide_by_row(%x: tensor<4096x4096xf32>, %s: tensor<4096x1xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4096x4096xf32>, tensor<4096x1xf32>) outs(%y : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %d: f32, %b: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// Row reduction (innermost loop, one add combiner): one warp per row, 8 rows
// per block; the fill gets its own (vectorized) plan.
// CHECK-LABEL: qimeng.plan @rowsum provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [1024] to block
// CHECK-NEXT:    qimeng.tile "fill0" [4] to thread
// CHECK-NEXT:    qimeng.vectorize "fill0" width 4
// CHECK-NEXT:    qimeng.tile "reduction0" [8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp
// CHECK-NEXT:  }
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowsum(%x: memref<1024x512xf32>, %y: memref<1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1024xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1024x512xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Reductions the lanes of a warp cannot share keep one output per thread and
// the reduction loop serial in the thread: along an outer loop (columns), too
// short (fewer than a warp's 32 iterations), or with two outputs (argmax).
// CHECK-LABEL: qimeng.plan @colmax provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 256] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [0, 1] to thread
// CHECK-NEXT:  }
// CHECK-LABEL: qimeng.plan @short provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "reduction0" [256, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to thread
// CHECK-NEXT:  }
// Rows of a warp's length to 127 (an f64 min over 96): a warp per row.
// CHECK-LABEL: qimeng.plan @warp_row provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "reduction0" [8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp
// CHECK-NEXT:  }
// Rows that 8 does not divide: fewer warps per block.
// CHECK-LABEL: qimeng.plan @rows12 provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "reduction0" [4, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp
// CHECK-NEXT:  }
#rid = affine_map<(d0, d1) -> (d0, d1)>
#rrow = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>
func.func @colmax(%x: memref<512x1024xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#rid, #colmap], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<512x1024xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}
func.func @short(%x: memref<1024x16xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1024x16xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}
func.func @warp_row(%x: memref<1024x96xf64>, %y: memref<1024xf64>) {
  linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1024x96xf64>) outs(%y : memref<1024xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.minimumf %a, %acc : f64
    linalg.yield %r : f64
  }
  return
}
func.func @rows12(%x: memref<12x4096xf32>, %y: memref<12xf32>) {
  linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<12x4096xf32>) outs(%y : memref<12xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.mulf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Convolution: the three innermost parallel loops (h, w, c) get threads; the
// batch loop one block per image; the window runs serially in each thread.
// CHECK-LABEL: qimeng.plan @conv provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "conv0" [1, 1, 2, 128, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
// CHECK-NEXT:  }
func.func @conv(%x: memref<2x18x18x64xf32>, %w: memref<3x3x64x128xf32>, %y: memref<2x16x16x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x18x18x64xf32>, memref<3x3x64x128xf32>) outs(%y : memref<2x16x16x128xf32>)
  return
}

// -----

// A convolution with enough outputs to fill the GPU several times over: each
// thread computes a box of 8 filters by 2 pixels along W (the largest counts
// up to 8 and 4 that divide the loops and leave 1024 threads per SM), so
// each input read feeds 8 filters and each weight read 2 pixels; the blocks
// are whole (127 x 2 threads) so that every thread's box is static.
// CHECK-LABEL: qimeng.plan @conv_box provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "conv0" [1, 8, 2, 254, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 8, 1, 2, 0, 0, 0] to thread
// CHECK-NEXT:  }
func.func @conv_box(%x: memref<16x3x256x256xf32>, %w: memref<64x3x3x3xf32>, %y: memref<16x64x254x254xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<16x3x256x256xf32>, memref<64x3x3x3xf32>) outs(%y : memref<16x64x254x254xf32>)
  return
}

// -----

// Channels last: the filters are the innermost loop (8 per thread, 4
// threads), the pixels along W the next (4 would leave too few threads: 2).
// CHECK-LABEL: qimeng.plan @conv_box_nhwc provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "conv0" [1, 1, 128, 32, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 1, 2, 8, 0, 0, 0] to thread
// CHECK-NEXT:  }
func.func @conv_box_nhwc(%x: memref<8x130x130x3xf32>, %w: memref<3x3x3x32xf32>, %y: memref<8x128x128x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<8x130x130x3xf32>, memref<3x3x3x32xf32>) outs(%y : memref<8x128x128x32xf32>)
  return
}

// -----

// A dynamic batch dimension goes onto the grid, one row per block (the block's
// threads along the static row keep their 128-bit vectors), as its static twin
// would.
// CHECK-LABEL: qimeng.plan @dyn provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1024] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:  }
#id3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dyn(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x1024xf32>) outs(%y : memref<?x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Everything dynamic: 256 threads a block along the innermost loop, blocks
// that may be partial anywhere (no vectors).
// CHECK-LABEL: qimeng.plan @all_dynamic provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [256] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1] to thread
// CHECK-NEXT:  }
func.func @all_dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A dynamic batch over short rows: the rest of the block's threads go along
// the batch, and the blocks may be partial anywhere (no vectors).
// CHECK-LABEL: qimeng.plan @dyn_short_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [16, 16] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1] to thread
// CHECK-NEXT:  }
func.func @dyn_short_rows(%x: memref<?x16xf32>, %y: memref<?x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x16xf32>) outs(%y : memref<?x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Existing tags are kept; a function that already has a plan is left alone.
// CHECK-LABEL: func.func @tagged
// CHECK:       linalg.add {qimeng.tag = "mine"}
// CHECK:       qimeng.plan @tagged provenance "tuned" {
// CHECK-NEXT:    qimeng.tile "mine" [2, 8] to block
// CHECK-NOT:   qimeng.plan @tagged
func.func @tagged(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  linalg.add {qimeng.tag = "mine"} ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  return
}
qimeng.plan @tagged provenance "tuned" {
  qimeng.tile "mine" [2, 8] to block
  qimeng.tile "mine" [1, 4] to thread
}

// -----

// Generated tags skip the ones the input already uses.
// CHECK-LABEL: func.func @collide
// CHECK:       linalg.add {qimeng.tag = "elementwise0"}
// CHECK:       linalg.sub {qimeng.tag = "elementwise1"}
func.func @collide(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  linalg.add {qimeng.tag = "elementwise0"} ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  linalg.sub ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  return
}

// -----

// 128-bit vectors for f16 (8 lanes), and for operands broadcast across the
// innermost loop (a row vector) or along it (a column scale).
// CHECK-LABEL: qimeng.plan @f16_broadcast provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 2048] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 8] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 8
// CHECK-NEXT:  }
#idh = affine_map<(d0, d1) -> (d0, d1)>
#rowh = affine_map<(d0, d1) -> (d0)>
#colh = affine_map<(d0, d1) -> (d1)>
func.func @f16_broadcast(%x: memref<64x4096xf16>, %r: memref<64xf16>, %c: memref<4096xf16>, %y: memref<64x4096xf16>) {
  linalg.generic {indexing_maps = [#idh, #rowh, #colh, #idh], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r, %c : memref<64x4096xf16>, memref<64xf16>, memref<4096xf16>) outs(%y : memref<64x4096xf16>) {
  ^bb0(%a: f16, %b: f16, %s: f16, %o: f16):
    %t = arith.addf %a, %b : f16
    %u = arith.mulf %t, %s : f16
    linalg.yield %u : f16
  }
  return
}

// -----

// A transpose goes through shared memory: a block copies a 64 x 32 tile of
// the input in 128-bit vectors into rows padded by 16 bytes, each thread
// reads 8 f32 of a tile row and writes them down an output column.
// CHECK-LABEL: qimeng.plan @transposed provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [32, 64] to block
// CHECK-NEXT:    qimeng.promote "elementwise0" operands [0] pad 4
// CHECK-NEXT:    qimeng.tile "elementwise0" [8, 1] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:  }
func.func @transposed(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  linalg.transpose ins(%x : memref<512x512xf32>) outs(%y : memref<512x512xf32>) permutation = [1, 0]
  return
}

// -----

// Batched f16 (a dynamic batch, one matrix per block row of the grid):
// 64 x 64 tiles, 16 f16 per thread.
// CHECK-LABEL: qimeng.plan @transposed_batched provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 64, 64] to block
// CHECK-NEXT:    qimeng.promote "elementwise0" operands [0] pad 8
// CHECK-NEXT:    qimeng.tile "elementwise0" [0, 16, 1] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 8
// CHECK-NEXT:  }
func.func @transposed_batched(%x: memref<?x128x192xf16>, %y: memref<?x192x128xf16>) {
  linalg.transpose ins(%x : memref<?x128x192xf16>) outs(%y : memref<?x192x128xf16>) permutation = [0, 2, 1]
  return
}

// -----

// Off the shared tiles (40 outputs along a row: 64 and 32 do not divide
// them; a permutation whose input rows do not run along the output's
// innermost loop): the kernel stays scalar, each thread reads a run of 8
// f32 (one 32-byte sector) along the input's contiguous dimension, the
// warp's threads still write whole output rows.
// CHECK-LABEL: qimeng.plan @transposed_off_tiles provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "elementwise0" [32, 40] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [8, 1] to thread
// CHECK-NEXT:    qimeng.tile "elementwise1" [1, 32, 64] to block
// CHECK-NEXT:    qimeng.tile "elementwise1" [1, 8, 1] to thread
// CHECK-NEXT:  }
func.func @transposed_off_tiles(%x: memref<40x512xf32>, %y: memref<512x40xf32>,
                                %p: memref<64x8x128xf32>, %q: memref<8x128x64xf32>) {
  linalg.transpose ins(%x : memref<40x512xf32>) outs(%y : memref<512x40xf32>) permutation = [1, 0]
  linalg.transpose ins(%p : memref<64x8x128xf32>) outs(%q : memref<8x128x64xf32>) permutation = [1, 2, 0]
  return
}

// -----


// -----

// On tensors, the fill of a SIMT matmul's accumulator and the elementwise op
// on its result (single uses, 2-D f32, identity maps) get the matmul's block
// tile and 4x4 outputs per thread, and are fused into its blocks.
// CHECK-LABEL: qimeng.plan @linear_relu provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [64, 64] to block
// CHECK-NEXT:    qimeng.tile "fill0" [4, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "fill0" width 4
// CHECK-NEXT:    qimeng.tile "matmul0" [64, 64, 0] to block
// CHECK:         qimeng.pipeline "matmul0" stages 2
// CHECK-NEXT:    qimeng.tile "elementwise0" [64, 64] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [4, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:    qimeng.fuse "matmul0" producer "fill0"
// CHECK-NEXT:    qimeng.fuse "matmul0" consumer "elementwise0"
// CHECK-NEXT:  }
// A matmul whose result has two users keeps its consumers apart; so does one
// off the fast path (sizes the tiles do not divide).
// CHECK-LABEL: qimeng.plan @two_users provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NOT:     qimeng.fuse "matmul0" consumer
// CHECK:       }
// CHECK-LABEL: qimeng.plan @irregular provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @linear_relu(%x: tensor<256x128xf32>, %w: tensor<128x512xf32>, %b: tensor<512xf32>,
                       %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<256x128xf32>, tensor<128x512xf32>)
                      outs(%acc : tensor<256x512xf32>) -> tensor<256x512xf32>
  %0 = linalg.generic {indexing_maps = [#col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512xf32>) outs(%mm : tensor<256x512xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}
func.func @two_users(%x: tensor<256x128xf32>, %w: tensor<128x512xf32>, %y: tensor<256x512xf32>)
    -> (tensor<256x512xf32>, tensor<256x512xf32>) {
  %mm = linalg.matmul ins(%x, %w : tensor<256x128xf32>, tensor<128x512xf32>)
                      outs(%y : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e = tensor.empty() : tensor<256x512xf32>
  %0 = linalg.exp ins(%mm : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %0, %mm : tensor<256x512xf32>, tensor<256x512xf32>
}
func.func @irregular(%x: tensor<250x128xf32>, %w: tensor<128x500xf32>, %y: tensor<250x500xf32>) -> tensor<250x500xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<250x500xf32>) -> tensor<250x500xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<250x128xf32>, tensor<128x500xf32>)
                      outs(%acc : tensor<250x500xf32>) -> tensor<250x500xf32>
  return %mm : tensor<250x500xf32>
}

// -----

// Batched matmul: the SIMT matmul plan with one batch per block; its fill is
// fused as for a 2-D matmul.
// CHECK-LABEL: qimeng.plan @batched provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [1, 64, 64] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1, 4, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "fill0" width 4
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 64, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "contraction0" [0, 0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "contraction0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 4, 4, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "contraction0" width 4
// CHECK-NEXT:    qimeng.pipeline "contraction0" stages 2
// CHECK-NEXT:    qimeng.fuse "contraction0" producer "fill0"
// CHECK-NEXT:  }
func.func @batched(%A: tensor<8x128x256xf32>, %B: tensor<8x256x512xf32>, %C: tensor<8x128x512xf32>) -> tensor<8x128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<8x128x512xf32>) -> tensor<8x128x512xf32>
  %0 = linalg.batch_matmul ins(%A, %B : tensor<8x128x256xf32>, tensor<8x256x512xf32>)
                           outs(%acc : tensor<8x128x512xf32>) -> tensor<8x128x512xf32>
  return %0 : tensor<8x128x512xf32>
}

// -----

// A partial matrix-vector product (after qimeng-split-reductions): not a
// matmul (A is 3-D), one warp per output, as every operand is contiguous
// along the reduction.
// CHECK-LABEL: qimeng.plan @partial_matvec provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 8, 0] to block
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 1, 0] to warp
// CHECK-NEXT:  }
#a3 = affine_map<(i, s, k) -> (i, s, k)>
#x2 = affine_map<(i, s, k) -> (s, k)>
#y2 = affine_map<(i, s, k) -> (i, s)>
func.func @partial_matvec(%A: tensor<256x32x4096xf32>, %x: tensor<32x4096xf32>, %y: tensor<256x32xf32>) -> tensor<256x32xf32> {
  %0 = linalg.generic {indexing_maps = [#a3, #x2, #y2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %x : tensor<256x32x4096xf32>, tensor<32x4096xf32>) outs(%y : tensor<256x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  return %0 : tensor<256x32xf32>
}

// -----

// A matmul large enough that 128x64 blocks still give every SM one (16 x 32
// blocks here): 8x4 outputs per thread.
// CHECK-LABEL: qimeng.plan @large provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "matmul0" [128, 64, 0] to block
// CHECK-NEXT:    qimeng.tile "matmul0" [0, 0, 16] to reduction
// CHECK-NEXT:    qimeng.promote "matmul0" operands [0, 1]
// CHECK-NEXT:    qimeng.tile "matmul0" [8, 4, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "matmul0" width 4
// CHECK-NEXT:    qimeng.pipeline "matmul0" stages 2
// CHECK-NEXT:  }
func.func @large(%A: memref<2048x512xf32>, %B: memref<512x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x512xf32>, memref<512x2048xf32>) outs(%C : memref<2048x2048xf32>)
  return
}

// -----

// A keepdim row sum (the unit dimension indexed by 0): one warp per row.
// CHECK-LABEL: qimeng.plan @keepdim provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "reduction0" [8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp
// CHECK-NEXT:  }
func.func @keepdim(%x: memref<64x512xf32>, %y: memref<64x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Partial blocks (no vectors: a strided window read): a loop that fits the
// threads left gets exactly its size (17 outputs along W, not 32 threads
// with 15 idle); an outer loop that does not gets the count that launches
// the fewest threads (17 rows over at most 15 threads: 2 blocks of 9, not
// 15 + 2 of 15). 153 threads, no idle lanes but at the last row block's 1.
// CHECK-LABEL: qimeng.plan @conv_17x17 provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "conv0" [1, 1, 9, 17, 0, 0, 0] to block
// CHECK-NEXT:    qimeng.tile "conv0" [0, 1, 1, 1, 0, 0, 0] to thread
// CHECK-NEXT:  }
func.func @conv_17x17(%x: memref<4x8x35x35xf32>, %w: memref<5x8x3x3xf32>, %y: memref<4x5x17x17xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : memref<4x8x35x35xf32>, memref<5x8x3x3xf32>) outs(%y : memref<4x5x17x17xf32>)
  return
}

// -----

// Linalg ops in the branches of an scf.if (qimeng-prepare's versions of a
// matmul on a dynamic M, or code a user wrote) are planned as kernels of
// their own; the branch is taken on the host.
// CHECK-LABEL: qimeng.plan @branches
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1024] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 4] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:    qimeng.tile "elementwise1" [1, 1024] to block
func.func @branches(%x: tensor<?x1024xf32>, %small: i1) -> tensor<?x1024xf32> {
  %r = scf.if %small -> tensor<?x1024xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<?x1024xf32>) outs(%x : tensor<?x1024xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<?x1024xf32>
    scf.yield %0 : tensor<?x1024xf32>
  } else {
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<?x1024xf32>) outs(%x : tensor<?x1024xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.mulf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<?x1024xf32>
    scf.yield %1 : tensor<?x1024xf32>
  }
  return %r : tensor<?x1024xf32>
}
