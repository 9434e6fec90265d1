// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=pad-matmuls=false | FileCheck %s --check-prefix=NOPAD
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=pad-matmuls=false | FileCheck %s --check-prefix=ACC
// NOPAD-LABEL: func.func @pad_matmul_dynamic
// NOPAD-NOT:   tensor.expand_shape
// NOPAD:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x256xf32>, tensor<256x128xf32>)

// linalg.softmax becomes linalg generics (max, exp-sum, divide).
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:   linalg.softmax
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         arith.maxnumf
// CHECK:       math.exp
// CHECK:       arith.divf
func.func @softmax(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<64x128xf32>) outs(%y : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// tensor.pad becomes a generic reading the source at clamped indices.
// CHECK-LABEL: func.func @pad
// CHECK-NOT:   tensor.pad
// CHECK:       linalg.generic
// CHECK:         linalg.index 0
// CHECK:         arith.minsi
// CHECK:         arith.maxsi
// CHECK:         tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x4xf32>
// CHECK:         arith.select
// CHECK:       } -> tensor<6x8xf32>
func.func @pad(%x: tensor<4x4xf32>) -> tensor<6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.pad %x low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

// A strided insert into a filled tensor (a transposed convolution's spread
// input) becomes one generic over the destination: on the slice's lattice
// it reads the source, elsewhere it yields the fill value.
// CHECK-LABEL: func.func @insert_strided
// CHECK-NOT:   tensor.insert_slice
// CHECK-NOT:   linalg.fill
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x11xf32>
// CHECK:       linalg.generic {{.*}} outs(%[[E]] : tensor<2x11xf32>)
// CHECK:         arith.remui
// CHECK:         arith.divui
// CHECK:         tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x4xf32>
// CHECK:         arith.select
func.func @insert_strided(%x: tensor<2x4xf32>) -> tensor<2x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x11xf32>) -> tensor<2x11xf32>
  %0 = tensor.insert_slice %x into %f[0, 2] [2, 4] [1, 2] : tensor<2x4xf32> into tensor<2x11xf32>
  return %0 : tensor<2x11xf32>
}

// -----

// A rank-reducing insert into a tensor that is not a fill: the dropped
// dimension matches its offset; elsewhere the destination's own value.
// CHECK-LABEL: func.func @insert_reducing
// CHECK-SAME:  (%[[X:[^:]*]]: tensor<5xf32>{{.*}}, %[[D:[^:]*]]: tensor<3x5xf32>
// CHECK-NOT:   tensor.insert_slice
// CHECK:       linalg.generic {{.*}} outs(%[[D]] : tensor<3x5xf32>)
// CHECK:       ^bb0(%[[OUT:.*]]: f32):
// CHECK:         arith.cmpi eq
// CHECK:         tensor.extract %[[X]][%{{.*}}] : tensor<5xf32>
// CHECK:         arith.select %{{.*}}, %{{.*}}, %[[OUT]]
func.func @insert_reducing(%x: tensor<5xf32>, %d: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = tensor.insert_slice %x into %d[1, 0] [1, 5] [1, 1] : tensor<5xf32> into tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// tensor.concat becomes one generic choosing, along the concatenated
// dimension, the input whose range holds the index.
// CHECK-LABEL: func.func @concat
// CHECK-NOT:   tensor.concat
// CHECK:       linalg.generic
// CHECK-DAG:     tensor.extract %{{.*}} : tensor<?x2xf32>
// CHECK-DAG:     tensor.extract %{{.*}} : tensor<?x3xf32>
// CHECK:         arith.select
// CHECK:       } -> tensor<?x5xf32>
func.func @concat(%x: tensor<?x2xf32>, %y: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %0 = tensor.concat dim(1) %x, %y : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// An insert inside a loop is left to the code around it.
// CHECK-LABEL: func.func @insert_in_loop
// CHECK:       scf.for
// CHECK:         tensor.insert_slice
func.func @insert_in_loop(%x: tensor<4xf32>, %d: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %d) -> tensor<16xf32> {
    %n = tensor.insert_slice %x into %acc[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    scf.yield %n : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// A chain of elementwise ops fuses into one generic.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       math.exp
// CHECK:       arith.maximumf
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<1024xf32>, %t: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1024xf32>) outs(%t : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<1024xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<1024xf32>) outs(%y : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// A rank-0 pad is left alone.
// CHECK-LABEL: func.func @pad0d
// CHECK:       tensor.pad
func.func @pad0d(%x: tensor<f32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.pad %x nofold low[] high[] {
    tensor.yield %zero : f32
  } : tensor<f32> to tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A matmul reading B stored (n, k) reads a transposed copy of it instead
// (the op verifier checks the new map against the copy's shape); the
// generic, row-major now, becomes the named op.
// CHECK-LABEL: func.func @transposed_b
// CHECK:       %[[T:.+]] = linalg.transpose ins(%{{.*}} : tensor<256x128xf32>) outs(%{{.*}} : tensor<128x256xf32>) permutation = [1, 0]
// CHECK:       linalg.matmul ins(%{{.*}}, %[[T]] : tensor<64x128xf32>, tensor<128x256xf32>)
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_b(%A: tensor<64x128xf32>, %B: tensor<256x128xf32>, %C: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<64x128xf32>, tensor<256x128xf32>) outs(%C : tensor<64x256xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// A constant pad over a dynamic batch: a generic that gathers from the source
// with clamped indices, its size the source's plus the padding.
// CHECK-LABEL: func.func @pad_dynamic
// CHECK-SAME:  (%[[X:.+]]: tensor<?x3x8xf32>
// CHECK:       %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK:       %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x3x10xf32>
// CHECK:       linalg.generic
// CHECK-SAME:    outs(%[[E]] : tensor<?x3x10xf32>)
// CHECK:         tensor.extract %[[X]]
// CHECK-NOT:   tensor.pad
func.func @pad_dynamic(%x: tensor<?x3x8xf32>) -> tensor<?x3x10xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<?x3x8xf32> to tensor<?x3x10xf32>
  return %p : tensor<?x3x10xf32>
}

// -----

// A matmul the tiles do not divide (100 x 70 x 40): A and B padded with zeros
// (gather generics) to 128 x 64 and 64 x 128, multiplied by a named matmul
// into a fresh zero-filled tensor, the 100 x 70 corner copied into the
// output (whose zero fill is dropped) element by element, without a view of
// the product.
// CHECK-LABEL: func.func @pad_matmul
// CHECK-SAME:  %[[C:[a-z0-9]+]]: tensor<100x70xf32>
// CHECK:       %[[AP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<128x64xf32>)
// CHECK:       %[[BP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<64x128xf32>)
// CHECK:       %[[Z:.+]] = linalg.fill {{.*}} -> tensor<128x128xf32>
// CHECK:       %[[P:.+]] = linalg.matmul ins(%[[AP]], %[[BP]] : tensor<128x64xf32>, tensor<64x128xf32>) outs(%[[Z]] : tensor<128x128xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {{.*}} outs(%[[C]] : tensor<100x70xf32>)
// CHECK-NEXT:  ^bb0(%{{.+}}: f32):
// CHECK-NEXT:    %[[I:.+]] = linalg.index 0
// CHECK-NEXT:    %[[J:.+]] = linalg.index 1
// CHECK-NEXT:    %[[V:.+]] = tensor.extract %[[P]][%[[I]], %[[J]]]
// CHECK-NEXT:    linalg.yield %[[V]] : f32
// CHECK:       return %[[R]]
func.func @pad_matmul(%a: tensor<100x40xf32>, %b: tensor<40x70xf32>, %c: tensor<100x70xf32>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<100x40xf32>, tensor<40x70xf32>) outs(%f : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %0 : tensor<100x70xf32>
}

// -----

// Accumulating into an output it does not fill: the corner is added.
// CHECK-LABEL: func.func @pad_matmul_accumulate
// CHECK:       linalg.matmul {{.*}} -> tensor<128x128xf32>
// CHECK:       linalg.generic
// CHECK:         arith.addf
func.func @pad_matmul_accumulate(%a: tensor<100x40xf32>, %b: tensor<40x70xf32>, %c: tensor<100x70xf32>) -> tensor<100x70xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x40xf32>, tensor<40x70xf32>) outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %0 : tensor<100x70xf32>
}

// -----

// Only K padded (32 x 256 x 509: M and N are whole tiles): the padded
// operands' product accumulates into the output itself, its fill kept (the
// plan fuses it), no fresh product and no copy.
// CHECK-LABEL: func.func @pad_matmul_k_only
// CHECK:       %[[F:.+]] = linalg.fill {{.*}} -> tensor<32x256xf32>
// CHECK:       %[[AP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<32x512xf32>)
// CHECK:       %[[BP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<512x256xf32>)
// CHECK-NOT:   linalg.fill
// CHECK:       %[[P:.+]] = linalg.matmul ins(%[[AP]], %[[BP]] : tensor<32x512xf32>, tensor<512x256xf32>) outs(%[[F]] : tensor<32x256xf32>)
// CHECK-NEXT:  return %[[P]]
func.func @pad_matmul_k_only(%a: tensor<32x509xf32>, %b: tensor<509x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x509xf32>, tensor<509x256xf32>) outs(%f : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %0 : tensor<32x256xf32>
}

// -----

// A K shorter than one K step (20): no padding; the matmul is planned as a
// memory-bound op.
// CHECK-LABEL: func.func @short_k_matmul
// CHECK-NOT:   tensor.extract
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100x20xf32>, tensor<20x70xf32>)
func.func @short_k_matmul(%a: tensor<100x20xf32>, %b: tensor<20x70xf32>, %c: tensor<100x70xf32>) -> tensor<100x70xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x20xf32>, tensor<20x70xf32>) outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %0 : tensor<100x70xf32>
}

// -----

// A dynamic M: A gathered into (M / 64, 64) row tiles (zeros past M), a batch
// loop the weight is shared across.
// CHECK-LABEL: func.func @pad_matmul_dynamic
// CHECK:       %[[E:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?x64x256xf32>)
// CHECK:         tensor.extract
// CHECK:         arith.select
// CHECK:       %[[P:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[E]], %{{.+}} : tensor<?x64x256xf32>, tensor<256x128xf32>)
// CHECK:       linalg.generic {{.*}} outs(%{{.+}} : tensor<?x128xf32>)
// CHECK:         %[[Q:.+]] = arith.divui %{{.+}}, %c64
// CHECK:         %[[R:.+]] = arith.remui %{{.+}}, %c64
// CHECK:         tensor.extract %[[P]][%[[Q]], %[[R]], %{{.+}}] : tensor<?x64x128xf32>
func.func @pad_matmul_dynamic(%a: tensor<?x256xf32>, %b: tensor<256x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%n) : tensor<?x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x128xf32>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

// -----

// Tiles that divide, or the verifier's reference (pad-matmuls=false): left alone.
// CHECK-LABEL: func.func @whole_tiles
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<128x64xf32>, tensor<64x64xf32>)
func.func @whole_tiles(%a: tensor<128x64xf32>, %b: tensor<64x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// A contraction into a bf16 accumulator accumulates in f32 and is rounded
// once: the fill widened, the product summed into a fresh f32 tensor, one
// elementwise op rounding it into the original destination (the bf16 fill is
// gone).
// ACC-LABEL: func.func @accumulate_bf16
// ACC-NOT:   linalg.fill ins(%{{.+}} : bf16)
// ACC:       %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x64xf32>
// ACC:       %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x64xf32>)
// ACC:       %[[MM:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<?x32xbf16>, tensor<32x64xbf16>) outs(%[[F]] : tensor<?x64xf32>)
// ACC:         arith.extf
// ACC:         arith.mulf {{.+}} : f32
// ACC:         arith.addf {{.+}} : f32
// ACC:       linalg.generic {{.+}} ins(%[[MM]] : tensor<?x64xf32>) outs(%{{.+}} : tensor<?x64xbf16>)
// ACC:         arith.truncf {{.+}} : f32 to bf16
func.func @accumulate_bf16(%a: tensor<?x32xbf16>, %b: tensor<32x64xbf16>) -> tensor<?x64xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty(%m) : tensor<?x64xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<?x32xbf16>, tensor<32x64xbf16>) outs(%f : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %r : tensor<?x64xbf16>
}

// -----

// Without a fill, the f16 accumulator's contents are widened first.
// ACC-LABEL: func.func @accumulate_f16
// ACC:       %[[W:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<8x4xf16>) outs(%{{.+}} : tensor<8x4xf32>)
// ACC:         arith.extf {{.+}} : f16 to f32
// ACC:       %[[MM:.+]] = linalg.generic {{.+}} outs(%[[W]] : tensor<8x4xf32>)
// ACC:       linalg.generic {{.+}} ins(%[[MM]] : tensor<8x4xf32>) outs(%{{.+}} : tensor<8x4xf16>)
func.func @accumulate_f16(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>, %c: tensor<8x4xf16>) -> tensor<8x4xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x4xf16>) outs(%c : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %r : tensor<8x4xf16>
}

// -----

// An elementwise op that updates a tensor in place (bias + GELU on a matmul's
// result, `outs(%mm)`) read by three ops: each recomputes it from the tensor
// as an input, and none writes the tensor again as a second output.
// CHECK-LABEL: func.func @in_place_producer
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}}, %[[MM]] : tensor<128xf32>, tensor<64x128xf32>) outs(%{{.+}} : tensor<64xf32>)
// CHECK:           math.tanh
// CHECK:         } -> tensor<64xf32>
// CHECK:         %[[SUM:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MM]], %[[MAX]] : {{.*}}) outs(%{{.+}} : tensor<64xf32>)
// CHECK:         } -> tensor<64xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[MM]], %[[MAX]], %[[SUM]] : {{.*}}) outs(%{{.+}} : tensor<64x128xf32>)
// CHECK:         } -> tensor<64x128xf32>
// CHECK-NOT:     linalg.generic
#row = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @in_place_producer(%a: tensor<64x64xf32>, %b: tensor<64x128xf32>, %bias: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %g = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<128xf32>) outs(%mm : tensor<64x128xf32>) {
  ^bb0(%c: f32, %x: f32):
    %s = arith.addf %x, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  %o = tensor.empty() : tensor<64x128xf32>
  %sm = linalg.softmax dimension(1) ins(%g : tensor<64x128xf32>) outs(%o : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %sm : tensor<64x128xf32>
}

// -----

// An f16 softmax sums its exponentials in f32 (each term computed in f16 as
// the program says, then extended) from an f32 fill, and the sum is rounded
// once; the maximum stays in f16 (exact either way).
// CHECK-LABEL: func.func @softmax_f16
// CHECK:         %[[MAX:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<7xf16>)
// CHECK:           arith.maxnumf {{.*}} : f16
// CHECK:         %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<7xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]] : tensor<7x30011xf16>, tensor<7xf16>) outs(%[[ZERO]] : tensor<7xf32>)
// CHECK:           %[[E:.+]] = math.exp %{{.+}} : f16
// CHECK:           %[[W:.+]] = arith.extf %[[E]] : f16 to f32
// CHECK:           %[[S:.+]] = arith.addf %{{.+}}, %[[W]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]], %[[SUM]] : tensor<7x30011xf16>, tensor<7xf16>, tensor<7xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to f16
func.func @softmax_f16(%x: tensor<7x30011xf16>) -> tensor<7x30011xf16> {
  %e = tensor.empty() : tensor<7x30011xf16>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<7x30011xf16>) outs(%e : tensor<7x30011xf16>) -> tensor<7x30011xf16>
  return %0 : tensor<7x30011xf16>
}

// -----

// A bf16 sum into an output argument: the f32 sum is rounded into it.
// CHECK-LABEL: func.func @sum_bf16
// CHECK-SAME:    (%[[X:.+]]: tensor<64x1000xbf16>{{.*}}, %[[OUT:.+]]: tensor<64xbf16>
// CHECK:         %[[WIDE:.+]] = linalg.generic {{.*}} ins(%[[OUT]] : tensor<64xbf16>) outs(%{{.+}} : tensor<64xf32>)
// CHECK:           arith.extf
// CHECK:         %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<64x1000xbf16>) outs(%[[WIDE]] : tensor<64xf32>)
// CHECK:           arith.addf {{.*}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<64xf32>) outs(%[[OUT]] : tensor<64xbf16>)
// CHECK:           arith.truncf
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @sum_bf16(%x: tensor<64x1000xbf16>, %out: tensor<64xbf16>) -> tensor<64xbf16> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1000xbf16>) outs(%out : tensor<64xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %s = arith.addf %a, %acc : bf16
    linalg.yield %s : bf16
  } -> tensor<64xbf16>
  return %0 : tensor<64xbf16>
}

// -----

// A Linear on one row as torch-mlir writes it (the weight stored (n, k) and
// transposed): once the unit row is dropped, the product would read the
// transposed copy a column per output; it reads the weight as stored
// instead, y = W x (each output's row along K), and the copy goes.
// CHECK-DAG:   #[[$ROWS:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @linear_one_row
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x512xf32> {{.*}}, %[[W:[^:]+]]: tensor<256x512xf32>
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[XV:.+]] = tensor.collapse_shape %[[X]]
// CHECK:       linalg.generic {indexing_maps = [#{{.+}}, #[[$ROWS]], #{{.+}}], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:    ins(%[[XV]], %[[W]] : tensor<512xf32>, tensor<256x512xf32>)
// CHECK-NOT:   linalg.transpose
// A (k, n) matrix that no transpose made stays as it is.
// CHECK-LABEL: func.func @vector_times_matrix
// CHECK:       linalg.vecmat
// CHECK-SAME:    tensor<512x256xf32>
func.func @linear_one_row(%x: tensor<1x512xf32>, %w: tensor<256x512xf32>) -> tensor<1x256xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<512x256xf32>
  %wt = linalg.transpose ins(%w : tensor<256x512xf32>) outs(%te : tensor<512x256xf32>) permutation = [1, 0]
  %empty = tensor.empty() : tensor<1x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<1x512xf32>, tensor<512x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %y : tensor<1x256xf32>
}
func.func @vector_times_matrix(%x: tensor<512xf32>, %b: tensor<512x256xf32>, %y: tensor<256xf32>) -> tensor<256xf32> {
  %r = linalg.vecmat ins(%x, %b : tensor<512xf32>, tensor<512x256xf32>) outs(%y : tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
