// RUN: qimeng-opt %s --pass-pipeline="builtin.module(gpu.module(qimeng-contract-float-ops))" | FileCheck %s
// RUN: qimeng-opt --llm-plan --lower-to-nvvm="dump-ptx=%t.on" %S/Inputs/window-sum.mlir -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=FMA < %t.on/window_kernel.ptx
// RUN: qimeng-opt --llm-plan --lower-to-nvvm="dump-ptx=%t.off fmad=false" %S/Inputs/window-sum.mlir -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=NOFMA < %t.off/window_kernel.ptx
// Kernel multiplies, adds and subtracts (arith or already LLVM) may fuse into
// FMAs, other flags kept; host code is left alone. With fmad=false the
// scalar window product keeps a rounded multiply and add per term.
// CHECK-LABEL: gpu.module @kernels
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK-LABEL: func.func @host
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// FMA: fma.rn.f32
// FMA-NOT: mul.rn.f32
// NOFMA: mul.rn.f32
// NOFMA: add.rn.f32
// NOFMA-NOT: fma.rn.f32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32, %b: f32, %c: f32) kernel {
      %0 = arith.mulf %a, %b : f32
      %1 = arith.addf %0, %c fastmath<nnan> : f32
      %2 = arith.subf %1, %a : f32
      %3 = arith.divf %2, %b : f32
      %4 = llvm.fmul %3, %a : f32
      %5 = llvm.fadd %4, %c : f32
      gpu.return
    }
  }
  func.func @host(%a: f32) -> f32 {
    %0 = arith.mulf %a, %a : f32
    return %0 : f32
  }
}
