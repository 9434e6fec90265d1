// --qimeng-check-kernel-names: every symbol of a gpu.module becomes a PTX
// name; one that cannot (LLVM's NVPTX backend would abort the process on
// it) is an error naming it, escaped. PTX identifiers pass.
// RUN: qimeng-opt --qimeng-check-kernel-names --split-input-file --verify-diagnostics %s
// The whole pipeline stops there too, with the error on the launch.
// RUN: not qimeng-opt --llm-plan --lower-to-nvvm %S/Inputs/kernel-name-not-ptx.mlir 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: kernel-name-not-ptx.mlir:{{[0-9]+}}:{{[0-9]+}}: error: kernel module symbol 'r\FFx_kernel' cannot be a PTX name
// PIPELINE-NOT: LLVM ERROR

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{kernel module symbol 'relu.v2_kernel' cannot be a PTX name (a letter, or '_' or '$' followed by more; then letters, digits, '_' and '$'): rename the function it comes from}}
    gpu.func @"relu.v2_kernel"() kernel {
      gpu.return
    }
    // expected-error @below {{kernel module symbol 'r\FFx' cannot be a PTX name}}
    memref.global "private" @"r\FFx" : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{kernel module symbol '1k' cannot be a PTX name}}
    gpu.func @"1k"() kernel {
      gpu.return
    }
    // expected-error @below {{kernel module symbol '_' cannot be a PTX name}}
    gpu.func @"_"() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @relu_kernel() kernel {
      gpu.return
    }
    memref.global "private" @__wg_relu$0 : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.func @_k2() kernel {
      gpu.return
    }
  }
}
