// RUN: qimeng-opt %s --qimeng-prepare="num-sms=132 wgmma=true" --qimeng-split-reductions --qimeng-online-softmax -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: for f in softmax masked short_rows max_read_early maximumf_from_nan plus_inf; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// RUN: for f in log_softmax scaled softmax_f16 scaled_f16; do \
// RUN:   qimeng-run --cpu --verify --trials=2 --shape=0=3 --entry=$f --reference=%s %t.mlir 2>&1 | FileCheck %s --check-prefix=HOST || exit 1; done
// A softmax's row maximum and sum of exp(x - max) become one reduction with
// two outputs (the online sum), in the forms torch-mlir writes: linalg.softmax
// (maxnumf from NaN), log-softmax written out (maximumf from -inf), a
// causal-style mask and a scale fused into the reductions (the masked rows
// start with -inf), f16 softmaxes (an f16 maximum, its exponentials summed in
// f32). Rows shorter than a warp, and a maximum read before the sum is
// computed, keep the two reductions. Each function computes what it
// computed before (host, against the unchanged file).
// HOST: matches the reference in 2 trial(s)

// CHECK-LABEL: func.func @softmax
// CHECK:         %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[M0:.+]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK:         %[[S0:.+]] = linalg.fill ins(%{{.+}} : f32)
// CHECK:         %[[MS:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<48x300xf32>) outs(%[[M0]], %[[S0]] : tensor<48xf32>, tensor<48xf32>)
// CHECK:           %[[M:.+]] = arith.maxnumf %[[X:.+]], %[[OUT_M:[^ ]+]] : f32
// CHECK:           %[[GREW:.+]] = arith.cmpf ogt, %[[X]], %[[OUT_M]] : f32
// CHECK:           math.exp
// CHECK-NOT:       math.exp
// CHECK:           linalg.yield %[[M]], %{{.+}} : f32, f32
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[MS]]#0, %[[MS]]#1 :
func.func @softmax(%x: tensor<48x300xf32>) -> tensor<48x300xf32> {
  %e = tensor.empty() : tensor<48x300xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<48x300xf32>) outs(%e : tensor<48x300xf32>) -> tensor<48x300xf32>
  return %s : tensor<48x300xf32>
}

// CHECK-LABEL: func.func @log_softmax
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<?x40xf32>) outs(%{{.+}}, %{{.+}} : tensor<?xf32>, tensor<?xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         math.log
#id = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
func.func @log_softmax(%x: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x40xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x40xf32>) outs(%mi : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<?x40xf32>, tensor<?xf32>) outs(%si : tensor<?xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %ye = tensor.empty(%n) : tensor<?x40xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<?x40xf32>, tensor<?xf32>, tensor<?xf32>) outs(%ye : tensor<?x40xf32>) {
  ^bb0(%a: f32, %mx: f32, %sum: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %l = math.log %sum : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}

// The first 5 entries of every row are -inf: the online sum starts from
// elements whose maximum is -inf.
// CHECK-LABEL: func.func @masked
// CHECK:         linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<64xf32>, tensor<64xf32>)
// CHECK:           linalg.index 1
// CHECK:           arith.select
// CHECK:           arith.maxnumf
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @masked(%x: tensor<64x300xf32>) -> tensor<64x300xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<64x300xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x300xf32>) outs(%e : tensor<64x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %lt = arith.cmpi ult, %j, %c5 : index
    %v = arith.select %lt, %ninf, %a : f32
    linalg.yield %v : f32
  } -> tensor<64x300xf32>
  %e2 = tensor.empty() : tensor<64x300xf32>
  %s = linalg.softmax dimension(1) ins(%m : tensor<64x300xf32>) outs(%e2 : tensor<64x300xf32>) -> tensor<64x300xf32>
  return %s : tensor<64x300xf32>
}

// An attention score scaled before its softmax.
// CHECK-LABEL: func.func @scaled
// CHECK:         linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<?x8xf32>, tensor<?x8xf32>)
// CHECK:           arith.maxnumf
// CHECK-NOT:     iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         return
#id3 = affine_map<(b, r, c) -> (b, r, c)>
func.func @scaled(%x: tensor<?x8x200xf32>) -> tensor<?x8x200xf32> {
  %c0 = arith.constant 0 : index
  %scale = arith.constant 0.125 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8x200xf32>
  %e = tensor.empty(%n) : tensor<?x8x200xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x8x200xf32>) outs(%e : tensor<?x8x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %scale : f32
    linalg.yield %v : f32
  } -> tensor<?x8x200xf32>
  %e2 = tensor.empty(%n) : tensor<?x8x200xf32>
  %s = linalg.softmax dimension(2) ins(%y : tensor<?x8x200xf32>) outs(%e2 : tensor<?x8x200xf32>) -> tensor<?x8x200xf32>
  return %s : tensor<?x8x200xf32>
}

// An f16 softmax over its argument.
// CHECK-LABEL: func.func @softmax_f16
// CHECK:         linalg.generic {{.*}} ins(%{{.+}} : tensor<?x96xf16>) outs(%{{.+}}, %{{.+}} : tensor<?xf16>, tensor<?xf32>)
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @softmax_f16(%x: tensor<?x96xf16>) -> tensor<?x96xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x96xf16>
  %e = tensor.empty(%n) : tensor<?x96xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x96xf16>) outs(%e : tensor<?x96xf16>) -> tensor<?x96xf16>
  return %s : tensor<?x96xf16>
}

// An f16 softmax of a scaled score: the maximum in f16, the exponentials
// summed in f32 (the fused step computes them in f32).
// CHECK-LABEL: func.func @scaled_f16
// CHECK:         linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<?x8xf16>, tensor<?x8xf32>)
// CHECK:           arith.maxnumf %{{.+}}, %{{.+}} : f16
// CHECK:           arith.extf
// CHECK:           math.exp %{{.+}} : f32
// CHECK-NOT:     iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         return
func.func @scaled_f16(%x: tensor<?x8x200xf16>) -> tensor<?x8x200xf16> {
  %c0 = arith.constant 0 : index
  %scale = arith.constant 0.125 : f16
  %n = tensor.dim %x, %c0 : tensor<?x8x200xf16>
  %e = tensor.empty(%n) : tensor<?x8x200xf16>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x8x200xf16>) outs(%e : tensor<?x8x200xf16>) {
  ^bb0(%a: f16, %o: f16):
    %v = arith.mulf %a, %scale : f16
    linalg.yield %v : f16
  } -> tensor<?x8x200xf16>
  %e2 = tensor.empty(%n) : tensor<?x8x200xf16>
  %s = linalg.softmax dimension(2) ins(%y : tensor<?x8x200xf16>) outs(%e2 : tensor<?x8x200xf16>) -> tensor<?x8x200xf16>
  return %s : tensor<?x8x200xf16>
}

// Rows of 20 (a thread per row, read in vectors) keep two reductions.
// CHECK-LABEL: func.func @short_rows
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<512x20xf32>) outs(%{{.+}} : tensor<512xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<512x20xf32>, tensor<512xf32>) outs(%{{.+}} : tensor<512xf32>)
func.func @short_rows(%x: tensor<512x20xf32>) -> tensor<512x20xf32> {
  %e = tensor.empty() : tensor<512x20xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<512x20xf32>) outs(%e : tensor<512x20xf32>) -> tensor<512x20xf32>
  return %s : tensor<512x20xf32>
}

// The maximum is read (returned doubled) before the sum is computed: the
// fused reduction, at the sum's place, would come after that reader.
#vec = affine_map<(r) -> (r)>
// CHECK-LABEL: func.func @max_read_early
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<64x100xf32>) outs(%{{.+}} : tensor<64xf32>)
// CHECK:         arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<64x100xf32>, tensor<64xf32>) outs(%{{.+}} : tensor<64xf32>)
func.func @max_read_early(%x: tensor<64x100xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x100xf32>) outs(%mi : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %de = tensor.empty() : tensor<64xf32>
  %d = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%m : tensor<64xf32>) outs(%de : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<64x100xf32>, tensor<64xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %dd = arith.subf %a, %mx : f32
    %ex = math.exp %dd : f32
    %r = arith.addf %ex, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %d, %s : tensor<64xf32>, tensor<64xf32>
}

// A maximumf from NaN is NaN whatever the row holds: not an online sum's
// maximum (the fused step starts from -inf).
// CHECK-LABEL: func.func @maximumf_from_nan
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf32>)
func.func @maximumf_from_nan(%x: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %mi = linalg.fill ins(%nan : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%mi : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%si : tensor<8xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %m, %s : tensor<8xf32>, tensor<8xf32>
}

// A row with +inf: the two-pass sum is NaN (exp(inf - inf)), and so is the
// online one (x's own term is (x - m') * 0 + 1). Row 3 holds +inf at
// column 7; every row's softmax is NaN there and 0 or NaN elsewhere, as
// before.
// CHECK-LABEL: func.func @plus_inf
// CHECK:         linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<16xf32>, tensor<16xf32>)
func.func @plus_inf(%x: tensor<16x64xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %ye = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%ye : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ri = arith.cmpi eq, %i, %c3 : index
    %cj = arith.cmpi eq, %j, %c7 : index
    %at = arith.andi %ri, %cj : i1
    %v = arith.select %at, %inf, %a : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %e = tensor.empty() : tensor<16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<16x64xf32>) outs(%mi : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y, %m : tensor<16x64xf32>, tensor<16xf32>) outs(%si : tensor<16xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %m, %s : tensor<16xf32>, tensor<16xf32>
}
