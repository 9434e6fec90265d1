// RUN: qimeng-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// A bf16 matmul with a dynamic M and its zero fill: tensor maps on the host,
// nothing launched for M = 0, one launch of 128 x 256 tiles (grid from M at
// run time) with 3 warpgroups and 192 KB of dynamic shared memory; the
// producer streams TMA copies into 4 stages, the consumers multiply with
// wgmma and release each stage after the next step's wgmma; the fill is
// folded in (+0: nothing added) and the f32 tile rounded to bf16 in 8-wide
// stores.
// CHECK:       memref.global "private" @__qimeng_dynamic_shared : memref<0xi8, 3> {alignment = 1024 : i64}
// CHECK-LABEL: func.func @fill_bf16
// CHECK-NOT:   linalg.fill
// CHECK:       %[[DA:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%{{.+}}, %{{.+}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
// CHECK:       %[[DB:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%{{.+}}, %{{.+}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
// CHECK:       gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.+}} = %c384{{.*}}) dynamic_shared_memory_size %c196608_i32
// CHECK:         memref.get_global @__qimeng_dynamic_shared
// CHECK:         nvgpu.mbarrier.create
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %{{.+}}, %c49152
// CHECK-COUNT-5: nvgpu.tma.async.load
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK:         nvgpu.warpgroup.mma {{.+}} {transposeB}
// CHECK:         nvgpu.mbarrier.arrive
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         nvgpu.warpgroup.mma.store
// CHECK-NOT:     arith.addf
// CHECK:         arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
// CHECK:         vector.store {{.+}} {alignment = 16 : i64} : memref<?x1024xbf16>, vector<8xbf16>
// CHECK:       } {qimeng.target = "matmul0"}
func.func @fill_bf16(%a: memref<?x512xbf16>, %b: memref<512x1024xbf16>, %c: memref<?x1024xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill {qimeng.tag = "fill0"} ins(%z : bf16) outs(%c : memref<?x1024xbf16>)
  linalg.matmul {qimeng.tag = "matmul0"} ins(%a, %b : memref<?x512xbf16>, memref<512x1024xbf16>) outs(%c : memref<?x1024xbf16>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "matmul0"} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match attributes {qimeng.tag = "fill0"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f {tag = "matmul0", tile = array<i64: 128, 256, 64>, warpgroup_rows = 64, stages = 4, group_rows = 16} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Without a fill, C's contents are added (f32 here); an N only known at run
// time keeps the epilogue scalar and masked. One consumer warpgroup of all
// 128 rows: no register reallocation.
// CHECK-LABEL: func.func @accumulate
// CHECK:       gpu.launch {{.*}} in (%{{.+}} = %c256{{.*}}) dynamic_shared_memory_size
// CHECK-NOT:     nvvm.setmaxregister
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK:         scf.for
// CHECK:           memref.load %{{.+}} : memref<16384xf32, 3>
// CHECK:           %[[OLD:.+]] = memref.load %{{.+}} : memref<256x?xf32>
// CHECK:           arith.addf %{{.+}}, %[[OLD]] : f32
// CHECK:           memref.store
func.func @accumulate(%a: memref<256x256xf16>, %b: memref<256x?xf16>, %c: memref<256x?xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%a, %b : memref<256x256xf16>, memref<256x?xf16>) outs(%c : memref<256x?xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 128, stages = 3, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @f32(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{cannot take the wgmma kernel: its operands are not both bf16 or both f16}}
  linalg.matmul {qimeng.tag = "mm"} ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 4, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @stages(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{wgmma kernel options are not valid: 8 stages of 128x256x64 tiles need more than the 231424 bytes of shared memory a block can take}}
  linalg.matmul {qimeng.tag = "mm"} ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 256, 64>, warpgroup_rows = 64, stages = 8, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @shared(%a: memref<128x64xf16, #gpu.address_space<workgroup>>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{cannot take the wgmma kernel: an operand's rows are not contiguous in global memory}}
  linalg.matmul {qimeng.tag = "mm"} ins(%a, %b : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 4, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The consumer's output allocated after the matmul (where bufferization puts
// the buffer of a tensor.empty written after it): the allocation moves
// before the launch, whose epilogue writes it.
// CHECK-LABEL: func.func @consumer_allocated_after
// CHECK:       memref.alloc() : memref<256x256xf32>
// CHECK:       %[[OUT:.+]] = memref.alloc() : memref<256x256xf32>
// CHECK:       gpu.launch
// CHECK:         arith.addf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK:         vector.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] {{.*}} : memref<256x256xf32>, vector<8xf32>
// CHECK:       return %[[OUT]]
func.func @consumer_allocated_after(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %bias: memref<256xf32>) -> memref<256x256xf32> {
  %c = memref.alloc() : memref<256x256xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill0"} ins(%z : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  %out = memref.alloc() : memref<256x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<256x256xf32>, memref<256xf32>) outs(%out : memref<256x256xf32>) attrs = {qimeng.tag = "ep"} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %out : memref<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match attributes {qimeng.tag = "fill0"} in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.structured.match attributes {qimeng.tag = "ep"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f consumer %e {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 4, group_rows = 8} : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// B stored (n, k) (a Linear weight): its tensor map boxes whole (256 x 64)
// k-major tiles, one TMA copy per stage as for A, and each K step is four
// wgmma ops on 16-deep slices 32 bytes apart in both tiles, B not
// transposed; the first three leave every group in flight, the last waits
// until only its step's four are (the step before is then complete).
// CHECK-LABEL: func.func @nk_weight
// CHECK:       nvgpu.tma.create.descriptor %{{.+}} box[%{{.+}}, %{{.+}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, 3>
// CHECK:       nvgpu.tma.create.descriptor %{{.+}} box[%{{.+}}, %{{.+}}] : memref<*xbf16> -> <tensor = memref<256x64xbf16, 3>
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %{{.+}}, %c49152
// CHECK-COUNT-2: nvgpu.tma.async.load
// CHECK-NOT:     nvgpu.tma.async.load
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK:         scf.for
// CHECK:           memref.view %{{.+}}[%{{.+}}][] : memref<{{.+}}xi8, 3> to memref<64x16xbf16, 3>
// CHECK:           memref.view %{{.+}}[%{{.+}}][] : memref<{{.+}}xi8, 3> to memref<16x256xbf16, 3>
// CHECK:           nvgpu.warpgroup.mma {{.+}} {waitGroup = 7 : i64} : <tensor = memref<64x16xbf16, 3>>, <tensor = memref<16x256xbf16, 3>>
// CHECK:           arith.addi %{{.+}}, %c32
// CHECK:           nvgpu.warpgroup.mma {{.+}} {waitGroup = 7 : i64}
// CHECK:           arith.addi %{{.+}}, %c64
// CHECK:           nvgpu.warpgroup.mma {{.+}} {waitGroup = 7 : i64}
// CHECK:           arith.addi %{{.+}}, %c96
// CHECK:           nvgpu.warpgroup.mma {{.+}} {waitGroup = 4 : i64}
// CHECK-NOT:       transposeB
// CHECK:           nvgpu.mbarrier.arrive
func.func @nk_weight(%a: memref<?x512xbf16>, %w: memref<1024x512xbf16>, %c: memref<?x1024xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill0"} ins(%z : f32) outs(%c : memref<?x1024xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : memref<?x512xbf16>, memref<1024x512xbf16>) outs(%c : memref<?x1024xf32>) {qimeng.tag = "mm"}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match attributes {qimeng.tag = "fill0"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f {tag = "mm", tile = array<i64: 128, 256, 64>, warpgroup_rows = 64, stages = 4, group_rows = 16} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The slices' descriptors step only 64 rows of A: one consumer warpgroup
// of 128 rows cannot take a (n, k) B.
func.func @nk_weight_128_rows(%a: memref<256x256xf16>, %w: memref<256x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{cannot take the wgmma kernel with 128 rows per consumer warpgroup: a B stored (n, k) needs 64}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>) {qimeng.tag = "mm"}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 128, stages = 3, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Batched, B stored (b, n, k), a scale in the epilogue: A and B become
// (b x rows, k) matrices for their tensor maps, the grid runs each batch's
// tiles in turn along x (the batch is the block id over the tiles), each
// block's rows of A start at batch x M and of B at batch x N, and the
// epilogue reads and writes (batch, row, col). Nothing is launched for an
// empty batch.
// CHECK-LABEL: func.func @batched_nk
// CHECK:       %[[M:.+]] = memref.dim %{{.+}}, %c1 : memref<?x1000x1000xf32>
// CHECK:       memref.dim %{{.+}}, %c0{{.*}} : memref<?x1000x1000xf32>
// CHECK:       arith.andi
// CHECK:       scf.if
// CHECK:       %[[BATCHES:.+]] = memref.dim %{{.+}}, %c0{{.*}} : memref<?x1000x1000xf32>
// CHECK:       memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : memref<?x1000x80xf16> into memref<?x80xf16>
// CHECK:       memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : memref<?x1000x80xf16> into memref<?x80xf16>
// CHECK:       %[[TILES:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:       %[[BLOCKS:.+]] = arith.muli %[[TILES]], %[[BATCHES]] : index
// CHECK:       gpu.launch blocks(%[[BX:[^,]+]], %{{[^,]+}}, %{{[^,]+}}) in (%{{[^,]+}} = %[[BLOCKS]],
// CHECK:         %[[BATCH:.+]] = arith.divui %[[BX]], %[[TILES]] : index
// CHECK:         arith.remui %[[BX]], %[[TILES]] : index
// CHECK:         arith.muli %[[BATCH]], %[[M]] : index
// CHECK:         nvgpu.tma.async.load
// CHECK:         nvgpu.warpgroup.mma {{.+}} {waitGroup = 4 : i64}
// CHECK:         arith.mulf %{{.+}} : vector<8xf16>
// CHECK:         vector.store %{{.+}}, %{{.+}}[%[[BATCH]], %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x1000x1000xf16>, vector<8xf16>
func.func @batched_nk(%q: memref<?x1000x80xf16>, %k: memref<?x1000x80xf16>, %s: memref<?x1000x1000xf32>, %out: memref<?x1000x1000xf16>) {
  %z = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill0"} ins(%z : f32) outs(%s : memref<?x1000x1000xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<?x1000x80xf16>, memref<?x1000x80xf16>) outs(%s : memref<?x1000x1000xf32>) attrs = {qimeng.tag = "mm"} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : memref<?x1000x1000xf32>) outs(%out : memref<?x1000x1000xf16>) attrs = {qimeng.tag = "ep"} {
  ^bb0(%v: f32, %o: f16):
    %h = arith.truncf %v : f32 to f16
    %c = arith.constant 0.1118 : f16
    %y = arith.mulf %h, %c : f16
    linalg.yield %y : f16
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match attributes {qimeng.tag = "fill0"} in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.structured.match attributes {qimeng.tag = "ep"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f consumer %e {tag = "mm", tile = array<i64: 128, 256, 64>, warpgroup_rows = 64, stages = 4, group_rows = 16} : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A batched B stored (b, k, n) is read as one (b x K, N) matrix: its K must
// be a multiple of the K tile, or a tile would read the next batch's rows.
func.func @batched_kn_odd_k(%a: memref<4x256x200xf16>, %b: memref<4x200x256xf16>, %c: memref<4x256x256xf32>) {
  // expected-error @+1 {{cannot take the wgmma kernel: a batched B stored (b, k, n) needs a static K that is a multiple of the K tile (64)}}
  linalg.batch_matmul ins(%a, %b : memref<4x256x200xf16>, memref<4x200x256xf16>) outs(%c : memref<4x256x256xf32>) {qimeng.tag = "mm"}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 3, group_rows = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A split K (qimeng-prepare's split-K for few output tiles): loops
// (s, m, n, k), A (m, s, k) and B (n, s, k) read as their (rows, S x Kc)
// matrices, each part's product into its batch of C. The grid runs each
// part's tiles in turn; a block's part starts at column part x Kc of both A
// and B, and its rows at 0.
// CHECK-LABEL: func.func @split_k_nk
// CHECK:       %[[KC:.+]] = memref.dim %{{.+}}, %c2{{.*}} : memref<97x8x512xbf16>
// CHECK:       memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : memref<97x8x512xbf16> into memref<97x4096xbf16>
// CHECK:       memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : memref<1536x8x512xbf16> into memref<1536x4096xbf16>
// CHECK:       %[[TILES:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:       gpu.launch blocks(%[[BX:[^,]+]],
// CHECK:         %[[PART:.+]] = arith.divui %[[BX]], %[[TILES]] : index
// CHECK:         %[[M0:.+]] = arith.muli %{{.+}}, %c128{{.*}} : index
// CHECK:         %[[N0:.+]] = arith.muli %{{.+}}, %c128{{.*}} : index
// CHECK:         %[[FIRST:.+]] = arith.muli %[[PART]], %[[KC]] : index
// CHECK:         %[[K0:.+]] = arith.muli %{{.+}}, %c64{{.*}} : index
// CHECK:         %[[ACOL:.+]] = arith.addi %[[FIRST]], %[[K0]] : index
// CHECK:         %[[AROW:.+]] = arith.addi %c0{{.*}}, %[[M0]] : index
// CHECK:         nvgpu.tma.async.load %{{.+}}[%[[ACOL]], %[[AROW]]]
// CHECK:         %[[BCOL:.+]] = arith.addi %[[FIRST]], %[[K0]] : index
// CHECK:         %[[BROW:.+]] = arith.addi %c0{{.*}}, %[[N0]] : index
// CHECK:         nvgpu.tma.async.load %{{.+}}[%[[BCOL]], %[[BROW]]]
// CHECK:         vector.store %{{.+}}, %{{.+}}[%[[PART]], %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<8x97x1536xf32>, vector<8xf32>
func.func @split_k_nk(%a: memref<97x8x512xbf16>, %b: memref<1536x8x512xbf16>, %c: memref<8x97x1536xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill0"} ins(%z : f32) outs(%c : memref<8x97x1536xf32>)
  linalg.generic {indexing_maps = [affine_map<(s, m, n, k) -> (m, s, k)>, affine_map<(s, m, n, k) -> (n, s, k)>, affine_map<(s, m, n, k) -> (s, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<97x8x512xbf16>, memref<1536x8x512xbf16>) outs(%c : memref<8x97x1536xf32>) attrs = {qimeng.tag = "mm"} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match attributes {qimeng.tag = "fill0"} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 4, group_rows = 16} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The parts of a split K must be whole K tiles: a tile past a part's end
// would add the next part's products.
func.func @split_k_off_step(%a: memref<256x4x104xf16>, %b: memref<4x104x256xf16>, %c: memref<4x256x256xf32>) {
  // expected-error @+1 {{cannot take the wgmma kernel: the parts of a split K need a static K that is a multiple of the K tile (64)}}
  linalg.generic {indexing_maps = [affine_map<(s, m, n, k) -> (m, s, k)>, affine_map<(s, m, n, k) -> (s, k, n)>, affine_map<(s, m, n, k) -> (s, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x4x104xf16>, memref<4x104x256xf16>) outs(%c : memref<4x256x256xf32>) attrs = {qimeng.tag = "mm"} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match attributes {qimeng.tag = "mm"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not rewrite 'mm' as a wgmma kernel}}
    %l = transform.qimeng.rewrite_matmul_as_wgmma %mm {tag = "mm", tile = array<i64: 128, 128, 64>, warpgroup_rows = 64, stages = 4, group_rows = 16} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
