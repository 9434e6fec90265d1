// RUN: qimeng-opt --llm-plan --lower-to-nvvm="dump-ptx=%t" %s -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t/dyn_m_kernel_1.ptx
// RUN: qimeng-run --cpu --verify --trials=1 --shape=0=32x509 %s 2>&1 | FileCheck %s --check-prefix=HOST
// A matmul with few rows, a dynamic M and a long K is split into K parts
// whose product is a generic (parts, M tiles, m, n, k): the micro-coder makes
// its vectorized reduction of products a vector.contract, so the product
// kernel runs FMAs, not a multiply and an add per term.
// CHECK: .entry dyn_m_kernel(
// CHECK: ld.shared.v4.b32
// CHECK-NOT: mul.rn.f32
// CHECK: fma.rn.f32
// CHECK-NOT: mul.rn.f32
// HOST: @dyn_m matches the reference in 1 trial(s)
func.func @dyn_m(%a: tensor<?x509xf32>, %b: tensor<509x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x509xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x509xf32>, tensor<509x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
