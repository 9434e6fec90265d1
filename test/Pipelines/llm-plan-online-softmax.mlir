// A softmax runs as one kernel that reads each row once for its maximum and
// sum (the online sum of qimeng-online-softmax), then once to normalise it.
// Each lane folds a strided slice of its row in 128-bit vectors (one
// exponential per element; rows of 300: each lane's 3 vectors in one trip,
// the last masked; rows of 3072 over 128 threads: 6 vectors each, none),
// the lanes combine (max, sum) pairs by a butterfly of shuffles (two 32-bit
// shuffles and two rescaling exponentials per level), a block's warps meet
// in shared memory, and the first thread stores both. With Triton kernels
// requested the two reductions stay apart (the emitter takes no online sum):
// a maximum and a sum, each combined by 5 shuffles of f32.
// RUN: env -u QIMENG_LLM_BASE_URL -u OPENAI_BASE_URL -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u QIMENG_LLM_PROVIDER \
// RUN:   qimeng-opt %s --llm-plan 2>/dev/null | FileCheck %s
// RUN: rm -rf %t.triton && env -u QIMENG_LLM_BASE_URL -u OPENAI_BASE_URL -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u QIMENG_LLM_PROVIDER \
// RUN:   qimeng-opt %s --llm-plan --qimeng-emit-triton=%t.triton 2>/dev/null | FileCheck %s --check-prefix=TRITON

// CHECK-LABEL: func.func @warp_rows
// CHECK:         gpu.launch
// CHECK:           %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK-NOT:       scf.for
// CHECK:           vector.load {{.*}} vector<4xf32>
// CHECK-COUNT-12:  math.exp
// CHECK-NOT:       math.exp
// CHECK-COUNT-10:  gpu.shuffle xor %{{.+}}, %c{{[0-9]+}}_i32, %c32_i32 : i32
// CHECK:           scf.if
// CHECK:             memref.store
// CHECK-NEXT:        memref.store
// CHECK:           gpu.barrier
// CHECK-NOT:       gpu.shuffle
// CHECK-COUNT-2:   vector.store {{.*}} vector<4xf32>
// CHECK:           scf.if
// CHECK:             vector.store
// CHECK-NOT:       gpu.shuffle
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// TRITON-LABEL: func.func @warp_rows
// TRITON-COUNT-5: gpu.shuffle xor {{.*}} : f32
// TRITON:         math.exp
// TRITON-COUNT-5: gpu.shuffle xor {{.*}} : f32
// TRITON-NOT:     gpu.shuffle
// TRITON:         func.func @block_rows
func.func @warp_rows(%x: tensor<64x300xf32>) -> tensor<64x300xf32> {
  %e = tensor.empty() : tensor<64x300xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<64x300xf32>) outs(%e : tensor<64x300xf32>) -> tensor<64x300xf32>
  return %s : tensor<64x300xf32>
}

// CHECK-LABEL: func.func @block_rows
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %dim{{.*}}) threads({{.*}}) in ({{.*}} = %c128
// CHECK-SAME:      workgroup(%[[MAXES:.+]] : memref<4xf32, #gpu.address_space<workgroup>>, %[[SUMS:.+]] : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK:           gpu.thread_id x upper_bound 128
// CHECK-NOT:       scf.for
// CHECK-NOT:       arith.select %{{.+}}, %{{.+}}, %c767
// CHECK-COUNT-6:   vector.load {{.*}} vector<4xf32>
// CHECK-NOT:       scf.for
// CHECK-COUNT-10:  gpu.shuffle xor
// CHECK:           memref.store %{{.+}}, %[[MAXES]]
// CHECK:           memref.store %{{.+}}, %[[SUMS]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[MAXES]]
func.func @block_rows(%x: tensor<?x3072xf32>) -> tensor<?x3072xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3072xf32>
  %e = tensor.empty(%n) : tensor<?x3072xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x3072xf32>) outs(%e : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  return %s : tensor<?x3072xf32>
}
