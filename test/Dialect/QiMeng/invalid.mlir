// RUN: qimeng-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// One case per verifier message of the qimeng dialect.

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// expected-error @+1 {{provenance must be 'builtin', 'tuned' or 'llm:<model>', got 'llm:'}}
qimeng.plan @f provenance "llm:" {
}

// -----

func.func @f() {
  return
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{is not a macro action; a plan may only hold macro actions}}
  "test.not_an_action"() : () -> ()
}

// -----

// expected-error @+1 {{kernel @missing does not name a function}}
qimeng.plan @missing provenance "builtin" {
}

// -----

func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{has a non-string 'qimeng.tag' attribute}}
  %0 = tensor.empty() {qimeng.tag = 3 : i64} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
qimeng.plan @f provenance "builtin" {
}

// -----

func.func @f() -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = tensor.empty() {qimeng.tag = "t"} : tensor<8xf32>
  %1 = tensor.empty() {qimeng.tag = "t"} : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
// expected-error @+1 {{kernel @f tags two operations 't'}}
qimeng.plan @f provenance "builtin" {
}

// -----

func.func @f() {
  return
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{targets 'mm', but no operation of @f is tagged so}}
  qimeng.vectorize "mm" width 4
}

// -----

func.func @f() -> tensor<8xf32> {
  %0 = tensor.empty() {qimeng.tag = "e"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{expects its target to be a linalg operation, but 'tensor.empty' is not}}
  qimeng.tile "e" [4] to block
}

// -----

// expected-error @+1 {{'qimeng.tile' op expects parent op 'qimeng.plan'}}
qimeng.tile "mm" [4] to block

// -----
//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{needs at least one tile size}}
  qimeng.tile "mm" [] to block
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{tile sizes must be non-negative, got [4, -1]}}
  qimeng.tile "mm" [4, -1] to block
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{tiles nothing: every tile size is 0}}
  qimeng.tile "mm" [0, 0] to thread
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{interchange [0, 0] is not a permutation of the 2 tiled loops}}
  qimeng.tile "mm" [4, 4] to block interchange [0, 0]
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{sets lanes 64 on a thread tile; only warp tiles are shared by lanes}}
  qimeng.tile "mm" [4, 4] to thread lanes 64
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{lanes must be a multiple of 32 from 32 to 1024 (the threads sharing each warp tile), got 48}}
  qimeng.tile "mm" [1, 0] to warp lanes 48
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{expects 3 tile sizes, one per loop of 'linalg.matmul', got 2}}
  qimeng.tile "mm" [4, 4] to block
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{tiles loop 2 of 'linalg.matmul', a reduction loop, to GPU blocks; block tiles take only parallel loops}}
  qimeng.tile "mm" [4, 4, 4] to block
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{tiles loop 0 of 'linalg.matmul', a parallel loop, to a serial reduction loop; reduction tiles take only reduction loops}}
  qimeng.tile "mm" [4, 0, 4] to reduction
}

// -----
//===----------------------------------------------------------------------===//
// promote
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{needs at least one operand index to promote}}
  qimeng.promote "mm" operands []
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{operand indices must be non-negative, got -1}}
  qimeng.promote "mm" operands [-1]
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{promotes operand 1 twice}}
  qimeng.promote "mm" operands [1, 1]
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{padding must be non-negative, got -2}}
  qimeng.promote "mm" operands [0] pad -2
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{operand index 3 is out of range: 'linalg.matmul' has 3 operands}}
  qimeng.promote "mm" operands [0, 3]
}

// -----

func.func @f(%C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %cst = arith.constant 1.0 : f32
  %0 = linalg.fill {qimeng.tag = "fill"} ins(%cst : f32) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{operand 0 of 'linalg.fill' is a scalar and cannot be promoted}}
  qimeng.promote "fill" operands [0]
}

// -----
//===----------------------------------------------------------------------===//
// vectorize
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{vector width must be a power of two, got 6}}
  qimeng.vectorize "x" width 6
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{vector width 32 is too wide, at most 16}}
  qimeng.vectorize "x" width 32
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{vector width 8 of 32-bit elements is 256 bits; a GPU memory access is at most 128 bits}}
  qimeng.vectorize "mm" width 8
}

// -----
//===----------------------------------------------------------------------===//
// unroll
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{loop number must be non-negative, got -1}}
  qimeng.unroll "x" dim -1 factor 2
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{unroll factor must be in [2, 64], got 1}}
  qimeng.unroll "x" dim 0 factor 1
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{unrolls loop 3, but 'linalg.matmul' has 3 loops}}
  qimeng.unroll "mm" dim 3 factor 4
}

// -----
//===----------------------------------------------------------------------===//
// pipeline
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{needs at least 1 pipeline stage, got 0}}
  qimeng.pipeline "x" stages 0
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{9 pipeline stages is too many, at most 8}}
  qimeng.pipeline "x" stages 9
}

// -----

func.func @f(%C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %cst = arith.constant 1.0 : f32
  %0 = linalg.fill {qimeng.tag = "fill"} ins(%cst : f32) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{pipelines a reduction loop, but 'linalg.fill' has none}}
  qimeng.pipeline "fill" stages 2
}

// -----
//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{instruction shape must be three positive sizes [m, n, k], got [16, 8]}}
  qimeng.mma "mm" mma_sync [16, 8] (f16, f16) -> f32
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{A and B element types must match, got f16 and bf16}}
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, bf16) -> f32
}

// -----

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{no mma_sync instruction has shape [16, 16, 16] with f16 inputs and f32 accumulators}}
  qimeng.mma "mm" mma_sync [16, 16, 16] (f16, f16) -> f32
}

// -----

func.func @f(%A: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.add {qimeng.tag = "add"} ins(%A, %A : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{needs a contraction, but 'linalg.add' is not one}}
  qimeng.mma "add" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // f32 data runs on tensor cores only as tf32, and only when asked for.
  // expected-error @+1 {{declares f16 inputs, but 'linalg.matmul' reads 'f32' and 'f32'}}
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----

func.func @f(%A: tensor<8x8xf16>, %B: tensor<8x8xf16>, %C: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf16>, tensor<8x8xf16>) outs(%C : tensor<8x8xf16>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{declares f32 accumulators, but 'linalg.matmul' accumulates in 'f16'}}
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}

// -----
//===----------------------------------------------------------------------===//
// fuse
//===----------------------------------------------------------------------===//

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{cannot fuse 'mm' into itself}}
  qimeng.fuse "mm" producer "mm"
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{fuses 'relu', but no operation of the kernel is tagged so}}
  qimeng.fuse "mm" consumer "relu"
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() {qimeng.tag = "e"} : tensor<8x8xf32>
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{cannot fuse 'tensor.empty': it does not implement the tiling interface}}
  qimeng.fuse "mm" producer "e"
}

// -----

func.func @f(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>, %C: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.add {qimeng.tag = "add"} ins(%A, %B : tensor<8x8xf32>, tensor<8x8xf32>) outs(%C : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{fuses 'add' as a consumer of 'mm', but 'mm' computes no operand of 'add'}}
  qimeng.fuse "mm" consumer "add"
}
