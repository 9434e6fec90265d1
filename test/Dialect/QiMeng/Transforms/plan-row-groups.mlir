// RUN: qimeng-opt %s --split-input-file --qimeng-prepare --qimeng-plan | FileCheck %s

// A softmax over 4096 rows: its five ops (fills, max and sum reductions, the
// division; exp(x - max) is recomputed in the sum and the division rather than
// written out) take 8 rows per block and a row per warp, and run as one
// kernel in the block loop of the last op.
// CHECK-LABEL: qimeng.plan @softmax provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [8] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1] to warp
// CHECK-NEXT:    qimeng.tile "reduction0" [8, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp
// CHECK:         qimeng.tile "elementwise0" [8, 0] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 0] to warp
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "reduction1"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "fill1"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "reduction0"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "fill0"
// CHECK-NEXT:  }
func.func @softmax(%x: tensor<4096x1000xf32>) -> tensor<4096x1000xf32> {
  %e = tensor.empty() : tensor<4096x1000xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4096x1000xf32>) outs(%e : tensor<4096x1000xf32>) -> tensor<4096x1000xf32>
  return %0 : tensor<4096x1000xf32>
}

// -----

// A dynamic number of rows read off one argument (the temporaries and the
// result sized from it): one kernel, a row per block; a warp for rows of
// 1000 (16 elements per thread or more).
// CHECK-LABEL: qimeng.plan @dynamic_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [1, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp{{$}}
// CHECK:         qimeng.fuse
func.func @dynamic_rows(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%n) : tensor<?x1000xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<?x1000xf32>) outs(%e : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %0 : tensor<?x1000xf32>
}

// -----

// The same with the output an argument: its rows and the input's cannot be
// shown to be one value, so the ops keep kernels of their own.
// CHECK-LABEL: qimeng.plan @dynamic_rows_outarg provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
func.func @dynamic_rows_outarg(%x: tensor<?x1000xf32>, %y: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<?x1000xf32>) outs(%y : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %0 : tensor<?x1000xf32>
}

// -----

// Few rows (16) but short ones: one kernel, a block per row, as many threads
// as leave each 8 elements or more of its row (64 for 1000).
// CHECK-LABEL: qimeng.plan @few_short_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [1, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp lanes 64
// CHECK:         qimeng.fuse
func.func @few_short_rows(%x: tensor<16x1000xf32>) -> tensor<16x1000xf32> {
  %e = tensor.empty() : tensor<16x1000xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x1000xf32>) outs(%e : tensor<16x1000xf32>) -> tensor<16x1000xf32>
  return %0 : tensor<16x1000xf32>
}

// -----

// Few long rows (16 x 16384, 64 KB each): one kernel, a block of 1024
// threads per row.
// CHECK-LABEL: qimeng.plan @few_long_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "fill0" [1] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1] to warp lanes 1024
// CHECK:         qimeng.tile "elementwise0" [1, 0] to warp lanes 1024
// CHECK:         qimeng.fuse
func.func @few_long_rows(%x: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
  %e = tensor.empty() : tensor<16x16384xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x16384xf32>) outs(%e : tensor<16x16384xf32>) -> tensor<16x16384xf32>
  return %0 : tensor<16x16384xf32>
}

// -----

// Few very long rows (16 x 262144, 1 MB each): no row group; one block would
// stream a whole row, so they are better split across blocks
// (qimeng-split-reductions) and planned op by op.
// CHECK-LABEL: qimeng.plan @few_very_long_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NOT:     qimeng.fuse
// CHECK:       }
func.func @few_very_long_rows(%x: tensor<16x262144xf32>) -> tensor<16x262144xf32> {
  %e = tensor.empty() : tensor<16x262144xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x262144xf32>) outs(%e : tensor<16x262144xf32>) -> tensor<16x262144xf32>
  return %0 : tensor<16x262144xf32>
}

// -----

// A dynamic number of long rows: a block of 128 threads per row of 3072 (16
// elements each), however many rows come.
// CHECK-LABEL: qimeng.plan @dynamic_long_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [1, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp lanes 128
// CHECK:         qimeng.fuse
func.func @dynamic_long_rows(%x: tensor<?x3072xf16>) -> tensor<?x3072xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3072xf16>
  %e = tensor.empty(%n) : tensor<?x3072xf16>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<?x3072xf16>) outs(%e : tensor<?x3072xf16>) -> tensor<?x3072xf16>
  return %0 : tensor<?x3072xf16>
}

// -----

// Rows shorter than a warp (8 elements): a thread per row, 256 rows per
// block, every op in the block loop of the last; the ops along the row read
// (and write) it whole in 128-bit vectors.
// CHECK-LABEL: qimeng.plan @short_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [1, 256] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1, 1] to thread
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 256, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 1, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "reduction0" width 4
// CHECK:         qimeng.tile "elementwise0" [1, 256, 0] to block
// CHECK-NEXT:    qimeng.tile "elementwise0" [1, 1, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "elementwise0" width 4
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "reduction1"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "fill1"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "reduction0"
// CHECK-NEXT:    qimeng.fuse "elementwise0" producer "fill0"
// CHECK-NEXT:  }
func.func @short_rows(%x: tensor<100x5120x8xf32>) -> tensor<100x5120x8xf32> {
  %e = tensor.empty() : tensor<100x5120x8xf32>
  %0 = linalg.softmax dimension(2) ins(%x : tensor<100x5120x8xf32>) outs(%e : tensor<100x5120x8xf32>) -> tensor<100x5120x8xf32>
  return %0 : tensor<100x5120x8xf32>
}

// -----

// An argmax as torch-mlir writes it (the maximum and its index, each with its
// fill) over 33 rows of 3072: one kernel, a block of 256 threads per row.
// CHECK-LABEL: qimeng.plan @argmax provenance "builtin" attributes {qimeng.replaceable} {
// CHECK-NEXT:    qimeng.tile "fill0" [1] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1] to warp lanes 256
// CHECK-NEXT:    qimeng.tile "fill1" [1] to block
// CHECK-NEXT:    qimeng.tile "fill1" [1] to warp lanes 256
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to warp lanes 256
// CHECK-NEXT:    qimeng.fuse "reduction0" producer "fill1"
// CHECK-NEXT:    qimeng.fuse "reduction0" producer "fill0"
// CHECK-NEXT:  }
#in = affine_map<(r, c) -> (r, c)>
#out = affine_map<(r, c) -> (r)>
func.func @argmax(%x: tensor<33x3072xf32>) -> tensor<33xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ve = tensor.empty() : tensor<33xf32>
  %ie = tensor.empty() : tensor<33xi64>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ve : tensor<33xf32>) -> tensor<33xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ie : tensor<33xi64>) -> tensor<33xi64>
  %0:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x3072xf32>) outs(%v0, %i0 : tensor<33xf32>, tensor<33xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ci, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<33xf32>, tensor<33xi64>)
  return %0#1 : tensor<33xi64>
}

// -----

// Rows of 5 (not whole 128-bit vectors): a thread per row, read element by
// element.
// CHECK-LABEL: qimeng.plan @short_odd_rows provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [256, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to thread
// CHECK-NOT:     qimeng.vectorize
// CHECK:       }
func.func @short_odd_rows(%x: tensor<1000x5xf32>) -> tensor<1000x5xf32> {
  %e = tensor.empty() : tensor<1000x5xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<1000x5xf32>) outs(%e : tensor<1000x5xf32>) -> tensor<1000x5xf32>
  return %0 : tensor<1000x5xf32>
}

// -----

// 384 rows of 16: 128 rows per block (the largest power of two from a warp
// to 256 that divides 384), whole blocks, rows in vectors; 509 rows (prime):
// 256 per block, the last one partial, no vectors.
// CHECK-LABEL: qimeng.plan @short_rows_whole_blocks provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [128, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to thread
// CHECK-NEXT:    qimeng.vectorize "reduction0" width 4
// CHECK-LABEL: qimeng.plan @short_rows_partial_blocks provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "reduction0" [256, 0] to block
// CHECK-NEXT:    qimeng.tile "reduction0" [1, 0] to thread
// CHECK-NOT:     qimeng.vectorize
// CHECK:       }
func.func @short_rows_whole_blocks(%x: tensor<384x16xf32>) -> tensor<384x16xf32> {
  %e = tensor.empty() : tensor<384x16xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<384x16xf32>) outs(%e : tensor<384x16xf32>) -> tensor<384x16xf32>
  return %0 : tensor<384x16xf32>
}
func.func @short_rows_partial_blocks(%x: tensor<509x16xf32>) -> tensor<509x16xf32> {
  %e = tensor.empty() : tensor<509x16xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<509x16xf32>) outs(%e : tensor<509x16xf32>) -> tensor<509x16xf32>
  return %0 : tensor<509x16xf32>
}

// -----

// A bf16 softmax over rows of 8: its sum accumulates in f32 (qimeng-prepare),
// so the sum's vectorize action is 128 bits of f32 (width 4); the rows still
// go whole (16 bytes of bf16).
// CHECK-LABEL: qimeng.plan @short_rows_bf16 provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.vectorize "reduction0" width 8
// CHECK:         qimeng.vectorize "reduction1" width 4
func.func @short_rows_bf16(%x: tensor<4x384x8xbf16>) -> tensor<4x384x8xbf16> {
  %e = tensor.empty() : tensor<4x384x8xbf16>
  %0 = linalg.softmax dimension(2) ins(%x : tensor<4x384x8xbf16>) outs(%e : tensor<4x384x8xbf16>) -> tensor<4x384x8xbf16>
  return %0 : tensor<4x384x8xbf16>
}

// -----

// An f16 softmax over a dynamic number of rows, as torch-mlir writes it:
// widened to f32, a softmax, narrowed back, the result returned. The
// softmax's decomposition sizes the row statistics by tensor.dim of the
// widened copy; that size query reads no data, so the group still forms
// (one kernel; it did not, and ran as six).
// CHECK-LABEL: qimeng.plan @softmax_f16_dynamic
// CHECK:       qimeng.fuse "elementwise1" producer "reduction1"
// CHECK-NEXT:  qimeng.fuse "elementwise1" producer "fill1"
// CHECK-NEXT:  qimeng.fuse "elementwise1" producer "reduction0"
// CHECK-NEXT:  qimeng.fuse "elementwise1" producer "fill0"
// CHECK-NEXT:  qimeng.fuse "elementwise1" producer "elementwise0"
// CHECK-NEXT:  }
func.func @softmax_f16_dynamic(%x: tensor<?x3072xf16>) -> tensor<?x3072xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3072xf16>
  %e16 = tensor.empty(%n) : tensor<?x3072xf16>
  %e32 = tensor.empty(%n) : tensor<?x3072xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x3072xf16>) outs(%e32 : tensor<?x3072xf32>) {
  ^bb0(%a: f16, %b: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<?x3072xf32>
  %e = tensor.empty(%n) : tensor<?x3072xf32>
  %s = linalg.softmax dimension(1) ins(%wide : tensor<?x3072xf32>) outs(%e : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x3072xf32>) outs(%e16 : tensor<?x3072xf16>) {
  ^bb0(%a: f32, %b: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x3072xf16>
  return %r : tensor<?x3072xf16>
}

// -----

// A bf16 vector times a (k, n) matrix with 4096 outputs: the accumulator's
// fill, widening and rounding would form a row group with the product, but
// a warp's lanes striding along K would read a column of the matrix each:
// no group, and the product takes the parallel plan, a thread per output
// reading along the matrix's rows.
// CHECK-LABEL: qimeng.plan @vector_times_columns provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "contraction0" [256, 0] to block
// CHECK-NEXT:    qimeng.tile "contraction0" [1, 0] to thread
// CHECK-NOT:     to warp
func.func @vector_times_columns(%x: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<1x4096xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<1x4096xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%empty : tensor<1x4096xbf16>) -> tensor<1x4096xbf16>
  %r = linalg.matmul ins(%x, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%acc : tensor<1x4096xbf16>) -> tensor<1x4096xbf16>
  return %r : tensor<1x4096xbf16>
}

// -----

// A layer norm as torch-mlir writes it: keepdim reductions into (rows, 1)
// tensors started by fills over (rows, 1). The fills take the rows' tiles
// (their unit loop untiled) and the whole norm is one kernel.
// CHECK-LABEL: qimeng.plan @layernorm_keepdim provenance "builtin" attributes {qimeng.replaceable} {
// CHECK:         qimeng.tile "fill0" [1, 0] to block
// CHECK-NEXT:    qimeng.tile "fill0" [1, 0] to warp
// CHECK:         qimeng.fuse "elementwise0" producer "reduction1"
// CHECK-DAG:     qimeng.fuse "elementwise0" producer "fill0"
// CHECK-DAG:     qimeng.fuse "elementwise0" producer "fill1"
// CHECK-DAG:     qimeng.fuse "elementwise0" producer "reduction0"
// CHECK:       }
func.func @layernorm_keepdim(%x: tensor<6x513xf32>, %g: tensor<513xf32>, %b: tensor<513xf32>) -> tensor<6x513xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 513.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<6x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<6x513xf32>) outs(%f1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32 } -> tensor<6x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%sum : tensor<6x1xf32>) outs(%e1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %o: f32): %d = arith.divf %v, %n : f32
      linalg.yield %d : f32 } -> tensor<6x1xf32>
  %e2 = tensor.empty() : tensor<6x513xf32>
  %xc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mean : tensor<6x513xf32>, tensor<6x1xf32>) outs(%e2 : tensor<6x513xf32>) {
    ^bb0(%v: f32, %m: f32, %o: f32): %d = arith.subf %v, %m : f32
      linalg.yield %d : f32 } -> tensor<6x513xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
    ins(%xc : tensor<6x513xf32>) outs(%f1 : tensor<6x1xf32>) {
    ^bb0(%v: f32, %acc: f32): %p = arith.mulf %v, %v : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32 } -> tensor<6x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%xc, %sq, %g, %b : tensor<6x513xf32>, tensor<6x1xf32>, tensor<513xf32>, tensor<513xf32>) outs(%e2 : tensor<6x513xf32>) {
    ^bb0(%v: f32, %s: f32, %gg: f32, %bb: f32, %o: f32):
      %var = arith.divf %s, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %y = arith.mulf %v, %rs : f32
      %y2 = arith.mulf %y, %gg : f32
      %y3 = arith.addf %y2, %bb : f32
      linalg.yield %y3 : f32 } -> tensor<6x513xf32>
  return %r : tensor<6x513xf32>
}
