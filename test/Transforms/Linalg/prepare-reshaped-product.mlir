// RUN: qimeng-opt %s --split-input-file --qimeng-prepare=pad-matmuls=false | FileCheck %s
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare | FileCheck %s --check-prefix=CONV
// RUN: qimeng-run --cpu --verify --trials=2 --entry=linear_3d --shape=0=3x37 %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=conv_bias_relu %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: qimeng-run --cpu --verify --trials=2 --entry=transposed %s 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: matches the reference in 2 trial(s)
// An elementwise generic that reads a matmul's result through a
// tensor.expand_shape runs over the matmul's own shape: the loops the
// reshape split become one, and the generic's result is expanded after it.
// Both then share a shape, and the planner fuses the consumer into the
// matmul's kernel: the convolution's bias and ReLU run in its matmul's
// kernel (three kernels: the two im2col copies and the matmul). The Linear
// over a dynamic batch of sequences compiles (its result expanded into two
// dynamic sizes crashed MLIR 22's expand-strided-metadata).
// RUN: qimeng-opt %s --split-input-file --llm-plan --lower-to-nvvm 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// KERNELS: gpu.launch_func {{.*}}@linear_3d_kernel
// The same Linear in bf16 (static sizes) is one wgmma kernel, its bias and
// ReLU in the epilogue.
// RUN: qimeng-opt %qimeng_src/test/Integration/GPU/Inputs/frontend/linear_3d_bf16.mlir --llm-plan --lower-to-nvvm 2>/dev/null | grep -c gpu.launch_func | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// KERNELS-COUNT-3: gpu.launch_func {{.*}}@conv_bias_relu_kernel
// KERNELS-NOT: gpu.launch_func {{.*}}@conv_bias_relu_kernel

// A Linear over a batch of sequences as torch-mlir writes it: the input's
// rows collapsed, a 2-D matmul, the result expanded back, then the bias.
// CHECK-LABEL: func.func @linear_3d
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[MM]], %{{.+}} : tensor<?x256xf32>, tensor<256xf32>)
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]]
// CHECK:         return %[[E]]
#x3 = affine_map<(b, s, n) -> (b, s, n)>
#bias = affine_map<(b, s, n) -> (n)>
func.func @linear_3d(%x: tensor<?x?x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<?x?x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %batch = tensor.dim %x, %c0 : tensor<?x?x128xf32>
  %seq = tensor.dim %x, %c1 : tensor<?x?x128xf32>
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x128xf32> into tensor<?x128xf32>
  %n = tensor.dim %rows, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%n) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %mm = linalg.matmul ins(%rows, %w : tensor<?x128xf32>, tensor<128x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [%batch, %seq, 256] : tensor<?x256xf32> into tensor<?x?x256xf32>
  %e3 = tensor.empty(%batch, %seq) : tensor<?x?x256xf32>
  %y = linalg.generic {indexing_maps = [#x3, #bias, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %b : tensor<?x?x256xf32>, tensor<256xf32>) outs(%e3 : tensor<?x?x256xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<?x?x256xf32>
  return %y : tensor<?x?x256xf32>
}

// -----

// A convolution as im2col writes it (the output collapsed for a batched
// matmul and expanded back), its bias and ReLU updating the output in place:
// they run over the matmul's (batch, pixels, channels).
// CONV-LABEL: func.func @conv_bias_relu
// CONV:         %[[MM:.+]] = linalg.batch_matmul
// CONV:         %[[Y:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CONV-SAME:      outs(%[[MM]] : tensor<2x256x64xf32>)
// CONV:         tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2], [3]] output_shape [2, 16, 16, 64]
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @conv_bias_relu(%x: tensor<2x18x18x64xf32>, %w: tensor<3x3x64x64xf32>, %b: tensor<64xf32>) -> tensor<2x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x18x18x64xf32>, tensor<3x3x64x64xf32>) outs(%acc : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  %y = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<64xf32>) outs(%c : tensor<2x16x16x64xf32>) {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16x64xf32>
  return %y : tensor<2x16x16x64xf32>
}

// -----

// A consumer that reads the split dimensions transposed keeps them apart.
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic {{.*}} ins(%[[E]] : tensor<4x8x32xf32>)
func.func @transposed(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 8, 32] : tensor<32x32xf32> into tensor<4x8x32xf32>
  %e3 = tensor.empty() : tensor<8x4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (j, i, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3 : tensor<4x8x32xf32>) outs(%e3 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// So does one that also reads a keepdim value at a constant index (as
// torch-mlir's softmax reads its row maximum).
// CHECK-LABEL: func.func @keepdim_read
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic {{.*}} ins(%[[E]], %{{.+}} : tensor<4x8x32xf32>, tensor<4x8x1xf32>)
func.func @keepdim_read(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %m: tensor<4x8x1xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 8, 32] : tensor<32x32xf32> into tensor<4x8x32xf32>
  %e3 = tensor.empty() : tensor<4x8x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, 0)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %m : tensor<4x8x32xf32>, tensor<4x8x1xf32>) outs(%e3 : tensor<4x8x32xf32>) {
  ^bb0(%v: f32, %mx: f32, %o: f32):
    %s = arith.subf %v, %mx : f32
    linalg.yield %s : f32
  } -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}
