// --llm-plan with no LLM configured: the built-in planner and micro-coder say
// so on stderr, bufferize tensors, and leave only gpu.launch kernels: one, as
// the fill and the bias + ReLU are fused into the matmul's blocks.
// RUN: env -u QIMENG_LLM_BASE_URL -u OPENAI_BASE_URL -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u QIMENG_LLM_PROVIDER \
// RUN:   qimeng-opt %s --llm-plan 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=STDERR < %t.err
// STDERR: qimeng: no LLM endpoint configured {{.*}}: using the built-in planner and micro-coder

// CHECK-LABEL: func.func @linear_relu(%{{.*}}: memref<256x128xf32>, %{{.*}}: memref<128x512xf32>, %{{.*}}: memref<512xf32>, %{{.*}}: memref<256x512xf32>) -> memref<256x512xf32>
// CHECK:       gpu.launch
// CHECK:         arith.maximumf
// CHECK-NOT:   gpu.launch
// CHECK-NOT:   linalg.
// CHECK-NOT:   qimeng.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_relu(%x: tensor<256x128xf32>, %w: tensor<128x512xf32>, %b: tensor<512xf32>,
                       %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%y : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<256x128xf32>, tensor<128x512xf32>)
                      outs(%acc : tensor<256x512xf32>) -> tensor<256x512xf32>
  %0 = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512xf32>) outs(%mm : tensor<256x512xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}
