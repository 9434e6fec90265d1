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
// expected-error @+1 {{target 'add' has no thread tile; every operation of a kernel must be mapped to GPU threads}}
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
qimeng.plan @m provenance "builtin" {
  // expected-error @+1 {{warp-level tiles are not supported by the built-in micro-coder yet}}
  qimeng.tile "mm" [32, 32, 0] to warp
}

// -----

func.func @m(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
qimeng.plan @m provenance "builtin" {
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [4, 4, 0] to thread
  // expected-error @+1 {{is not supported by the built-in micro-coder yet}}
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
  // expected-error @+1 {{padding shared-memory buffers is not supported by the built-in micro-coder yet}}
  qimeng.promote "mm" operands [0, 1] pad 4
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
  // expected-error @+1 {{maps more than 3 loops to GPU blocks; the built-in micro-coder maps at most 3}}
  qimeng.tile "add" [1, 1, 1, 1] to block
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
