// Plans the built-in micro-coder cannot realize get a precise error.
// RUN: qimeng-opt %s --split-input-file --qimeng-apply-plan --verify-diagnostics

func.func @t(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.add {qimeng.tag = "add"} ins(%A, %A : tensor<64x64xf32>, tensor<64x64xf32>) outs(%B : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
// expected-error @+1 {{kernel @t is on tensors; bufferize it first (--llm-plan does)}}
qimeng.plan @t provenance "builtin" {
  qimeng.tile "add" [8, 64] to block
  qimeng.tile "add" [1, 4] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
// expected-error @+1 {{target 'add' has no thread or warp tile; every operation of a kernel must be mapped to GPU threads}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [8, 64] to block
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  // expected-error @+1 {{comes before the block tile of 'add'; the block tile must come first}}
  qimeng.tile "add" [1, 4] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
// expected-error @+1 {{thread tile [3, 4] of 'add' does not divide its block tile [8, 64]}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [8, 64] to block
  qimeng.tile "add" [3, 4] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
// expected-error @+1 {{target 'add' needs 2048 threads per block, at most 1024}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [32, 64] to block
  qimeng.tile "add" [1, 1] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
// expected-error @+1 {{target 'mm' has both a thread and a warp tile; the built-in micro-coder maps each target to one of them}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.tile "mm" [4, 4, 0] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
// expected-error @+1 {{target 'mm' needs 2048 threads per block, at most 1024}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [8, 8, 0] to warp
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  // expected-error @+1 {{pipelines 'mm', which needs exactly one serial loop from a reduction tile; it has 0}}
  qimeng.pipeline "mm" stages 2
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.tile "mm" [4, 4, 0] to thread
  // expected-error @+1 {{pipelines the shared-memory copies of 'mm': promote and vectorize it first}}
  qimeng.pipeline "mm" stages 2
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.unroll "mm" dim 2 factor 2
  // expected-error @+1 {{pipelines loop 2 of 'mm', which an unroll action already takes; the built-in micro-coder does not do both}}
  qimeng.pipeline "mm" stages 2
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.pipeline "mm" stages 2
  // expected-error @+1 {{unrolls loop 2 of 'mm', which a pipeline action already takes; the built-in micro-coder does not do both}}
  qimeng.unroll "mm" dim 2 factor 2
}

// -----

func.func @m(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [32, 32, 0] to warp
  qimeng.vectorize "mm" width 4
  // expected-error @+1 {{asks for wmma; the built-in micro-coder implements mma_sync and wgmma}}
  qimeng.mma "mm" wmma [16, 16, 16] (f16, f16) -> f32
}

// -----

func.func @m(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  // expected-error @+1 {{needs 'mm' tiled to warps and vectorized first, and one mma action per target}}
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----

func.func @m(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [32, 4, 0] to warp
  qimeng.vectorize "mm" width 4
  // expected-error @+1 {{instruction shape [16, 8, 16] does not divide the warp tile [32, 4, 0]}}
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  linalg.add {qimeng.tag = "add"} ins(%C, %C : memref<64x64xf32>, memref<64x64xf32>) outs(%A : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  // expected-error @+1 {{fuses 'add', which the plan does not tile to blocks before this action}}
  qimeng.fuse "mm" consumer "add"
  qimeng.tile "add" [64, 64] to block
  qimeng.tile "add" [4, 4] to thread
}

// -----

func.func @m(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  linalg.add {qimeng.tag = "add"} ins(%C, %C : memref<128x128xf32>, memref<128x128xf32>) outs(%D : memref<128x128xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.tile "add" [32, 128] to block
  qimeng.tile "add" [2, 8] to thread
  // expected-error @+1 {{fuses 'add' with block tiles that cover different boxes of the buffer they share; the block tiles must match on it}}
  qimeng.fuse "mm" consumer "add"
}

// -----

func.func @m(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  linalg.add {qimeng.tag = "add"} ins(%C, %C : memref<128x128xf32>, memref<128x128xf32>) outs(%D : memref<128x128xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.tile "add" [64, 64] to block
  qimeng.tile "add" [16, 1] to thread
  // expected-error @+1 {{fuses 'add' ([64, 4, 1] threads) into 'mm' ([16, 16, 1] threads); the built-in micro-coder needs the same threads per block}}
  qimeng.fuse "mm" consumer "add"
}

// -----

func.func @m(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  linalg.transpose {qimeng.tag = "t"} ins(%C : memref<128x128xf32>) outs(%D : memref<128x128xf32>) permutation = [1, 0]
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.tile "t" [64, 64] to block
  qimeng.tile "t" [4, 4] to thread
  // expected-error @+1 {{fuses 't' with block tiles that cover different boxes of the buffer they share; the block tiles must match on it}}
  qimeng.fuse "mm" consumer "t"
}

// -----

func.func @m(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  linalg.add {qimeng.tag = "add"} ins(%C, %C : memref<128x128xf32>, memref<128x128xf32>) outs(%D : memref<128x128xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.tile "add" [64, 64] to block
  qimeng.tile "add" [4, 4] to thread
  qimeng.fuse "mm" consumer "add"
  // expected-error @+1 {{fuses 'add' into 'mm', but one of them is already fused}}
  qimeng.fuse "mm" consumer "add"
}

// -----

// The consumer writes the matmul's input: blocks would race.
func.func @m(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<128x128xf32>, memref<128x128xf32>) outs(%C : memref<128x128xf32>)
  linalg.add {qimeng.tag = "add"} ins(%C, %C : memref<128x128xf32>, memref<128x128xf32>) outs(%A : memref<128x128xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.tile "add" [64, 64] to block
  qimeng.tile "add" [4, 4] to thread
  // expected-error @+1 {{fuses 'add' into 'mm', but one writes a buffer the other also uses; blocks would race}}
  qimeng.fuse "mm" consumer "add"
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  // expected-error @+1 {{pads the rows of operand 0 ('f32') by 3 elements, which is not a multiple of 16 bytes: padded rows must stay aligned for 128-bit copies}}
  qimeng.promote "mm" operands [0, 1] pad 3
  qimeng.tile "mm" [4, 4, 0] to thread
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  // expected-error @+1 {{unrolls loop 2 of 'mm', but no reduction tile of the plan makes a serial loop for it}}
  qimeng.unroll "mm" dim 2 factor 2
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  // expected-error @+1 {{comes before the block tile of 'add'; the block tile must come first}}
  qimeng.vectorize "add" width 4
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [8, 64] to block
  // expected-error @+1 {{tiles 'add' to block a second time; the built-in micro-coder takes one tile per level}}
  qimeng.tile "add" [8, 32] to block
  qimeng.tile "add" [1, 4] to thread
}

// -----

func.func @m(%A: memref<4x4x4x4xf32>, %B: memref<4x4x4x4xf32>) {
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<4x4x4x4xf32>, memref<4x4x4x4xf32>) outs(%B : memref<4x4x4x4xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [1, 1, 2, 4] to block
  // expected-error @+1 {{maps more than 3 loops to GPU threads; the built-in micro-coder maps at most 3}}
  qimeng.tile "add" [1, 1, 1, 1] to thread
}

// -----

// Tags with quotes are escaped in the transform script: this plan is
// realized without errors.
func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  linalg.add {qimeng.tag = "a\"b\n} in %root"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "a\"b\n} in %root" [8, 64] to block
  qimeng.tile "a\"b\n} in %root" [1, 4] to thread
}

// -----

module {
  func.func @k() { return }
  module {
    func.func @k() { return }
    // expected-error @+1 {{must be at the top level of the module to be realized}}
    qimeng.plan @k provenance "builtin" {
    }
  }
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  // expected-error @+1 {{cannot be shared by the lanes of a warp: loops 0 and 1 have more than one iteration per warp; the warp tile must leave one loop at most}}
  linalg.add {qimeng.tag = "add"} ins(%A, %A : memref<64x64xf32>, memref<64x64xf32>) outs(%B : memref<64x64xf32>)
  return
}
// expected-error @+1 {{could not share the work of 'add' among the lanes of a warp}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "add" [8, 64] to block
  qimeng.tile "add" [2, 64] to warp
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @m(%X: memref<64x256xf32>, %Y: memref<64xf32>) {
  // expected-error @+1 {{cannot be reduced by the lanes of a warp: parallel loop 0 has 2 iterations per warp; the warp tile must be 1 along every parallel loop}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : memref<64x256xf32>) outs(%Y : memref<64xf32>) attrs = {qimeng.tag = "r"} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// expected-error @+1 {{could not share the work of 'r' among the lanes of a warp}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [2, 0] to warp
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @m(%X: memref<64x256xf32>, %Y: memref<64xf32>) {
  // expected-error @+1 {{cannot be reduced by the lanes of a warp: it needs one output, one reduction loop and a single add, mul, min or max combiner on 16-, 32- or 64-bit values}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : memref<64x256xf32>) outs(%Y : memref<64xf32>) attrs = {qimeng.tag = "r"} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.subf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
// expected-error @+1 {{could not share the work of 'r' among the lanes of a warp}}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "r" [8, 0] to block
  qimeng.tile "r" [1, 0] to warp
}

// -----

// wgmma needs bf16 or f16 operands.
func.func @m(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [128, 128, 0] to block
  qimeng.tile "mm" [0, 0, 64] to reduction
  qimeng.tile "mm" [64, 128, 0] to warp
  // expected-error @+1 {{declares f16 inputs, but 'linalg.matmul' reads 'f32' and 'f32'}}
  qimeng.mma "mm" wgmma [64, 128, 16] (f16, f16) -> f32
}

// -----

// A wgmma kernel's K tile is one 128-byte swizzle row (64 x 16 bits).
func.func @m(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [128, 128, 0] to block
  qimeng.tile "mm" [0, 0, 32] to reduction
  qimeng.tile "mm" [64, 128, 0] to warp
  // expected-error @+1 {{cannot build the wgmma kernel of 'mm': the K tile must be 64 (one 128-byte swizzle row)}}
  qimeng.mma "mm" wgmma [64, 128, 16] (f16, f16) -> f32
}

// -----

// Nothing else applies to a wgmma target.
func.func @m(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [128, 128, 0] to block
  qimeng.tile "mm" [0, 0, 64] to reduction
  // expected-error @+1 {{applies to 'mm', which takes wgmma: its kernel takes tiles, a pipeline, a fused fill and a fused elementwise consumer only}}
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [64, 128, 0] to warp
  qimeng.mma "mm" wgmma [64, 128, 16] (f16, f16) -> f32
}

// -----

// Rows TMA cannot read: 100 bf16 (200 bytes) apart.
func.func @m(%A: memref<256x100xbf16>, %B: memref<100x256xbf16>, %C: memref<256x256xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<256x100xbf16>, memref<100x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [128, 128, 0] to block
  qimeng.tile "mm" [0, 0, 64] to reduction
  qimeng.tile "mm" [64, 128, 0] to warp
  // expected-error @+1 {{computes 'mm' with wgmma, but rows of A or B are not a multiple of 16 bytes apart (TMA needs K and N to be multiples of 8)}}
  qimeng.mma "mm" wgmma [64, 128, 16] (bf16, bf16) -> f32
}

// -----

// A warp tile shared by more than a warp's lanes must be the block's only
// one.
func.func @rows(%A: memref<64x256xf32>, %B: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<64x256xf32>) outs(%B : memref<64xf32>) attrs = {qimeng.tag = "sum"} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// expected-error @+1 {{target 'sum' shares each warp tile by 128 lanes, but its block tile [4, 0] holds 4 warp tiles; lanes above 32 need one warp tile per block}}
qimeng.plan @rows provenance "builtin" {
  qimeng.tile "sum" [4, 0] to block
  qimeng.tile "sum" [1, 0] to warp lanes 128
}
