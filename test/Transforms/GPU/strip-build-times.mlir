// RUN: qimeng-opt %s --qimeng-strip-build-times | FileCheck %s

// Compile times go, every other property stays: the same input compiles to
// the same bytes.
// CHECK-LABEL: gpu.binary @k
// CHECK-SAME: properties = {O = 3 : i32}
// CHECK-NOT: TimeInMs
// CHECK-LABEL: gpu.binary @none
// CHECK-SAME: assembly = "ptx"
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {LLVMIRToISATimeInMs = 27 : i64, O = 3 : i32, ISAToBinaryTimeInMs = 5 : i64}, assembly = "ptx">]
  gpu.binary @none [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "ptx">]
}
