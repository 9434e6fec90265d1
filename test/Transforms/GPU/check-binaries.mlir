// --qimeng-check-binaries: PTX that declares a libdevice function without
// defining it (no CUDA toolkit was found to link libdevice) is an error;
// other PTX passes.
// RUN: qimeng-opt --qimeng-check-binaries --split-input-file --verify-diagnostics %s

module attributes {gpu.container_module} {
  // expected-error @below {{kernel module 'k' calls __nv_expf from CUDA's libdevice, which was not linked: no CUDA toolkit was found (set CUDA_HOME to one, e.g. /usr/local/cuda, or put its ptxas on PATH)}}
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = ".version 8.0\n.target sm_90\n.extern .func  (.param .b32 func_retval0) __nv_expf\n(\n\t.param .b32 __nv_expf_param_0\n)\n;\n">]
}

// -----

// Linked: libdevice functions are defined (.func, no .extern), and other
// extern declarations are not libdevice's.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = ".version 8.0\n.target sm_90\n.func  (.param .b32 func_retval0) __nv_expf(\n)\n{\n}\n.extern .func vprintf\n">]
}
