// A vectorized kernel reading a reshaped argument (memref.expand_shape after
// bufferization) compiles: MLIR 22's alias folding rewrote its vector reads
// forever, so the micro-coder leaves it out for kernels with reshaped
// buffers. `timeout` turns a regression into a failure instead of a hang.
// RUN: timeout 120 qimeng-opt --llm-plan --lower-to-nvvm="dump-ptx=%t" %s -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t/reshaped_copy_kernel.ptx
// CHECK: .entry reshaped_copy_kernel(
// CHECK: ld.global.{{(nc.)?}}v4.b32
// CHECK: st.global.v4.b32
func.func @reshaped_copy(%B: tensor<4096x256xf32>, %y: tensor<16x256x256xf32>) -> tensor<16x256x256xf32> {
  %e = tensor.expand_shape %B [[0, 1], [2]] output_shape [16, 256, 256] : tensor<4096x256xf32> into tensor<16x256x256xf32>
  %c = linalg.copy ins(%e : tensor<16x256x256xf32>) outs(%y : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %c : tensor<16x256x256xf32>
}
