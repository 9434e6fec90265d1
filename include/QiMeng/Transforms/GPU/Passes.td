//===- Passes.td - QiMeng GPU passes -----------------------------------*- tablegen -*-===//
//
// Passes after and around the GPU lowering: device allocations, managed-memory syncs, noalias kernel arguments, signatures, kernel-name and binary checks, PTX and launch dumps.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRANSFORMS_GPU_PASSES_TD
#define QIMENG_TRANSFORMS_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def QiMengNoAliasKernelArgsPass
    : Pass<"qimeng-noalias-kernel-args", "ModuleOp"> {
  let summary = "Mark a kernel's distinct buffers noalias";
  let description = [{
    Runs after kernel outlining. For every kernel launched once, each memref
    argument whose buffer (followed through views to its allocation or to a
    function argument) is passed to no other argument of the launch gets
    `llvm.noalias`. Function arguments count as distinct buffers, as
    bufferization assumes. LLVM can then keep values that a kernel
    accumulates in its output (convolutions, pooling, serial reductions) in
    registers instead of storing them after every step.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def QiMengDeviceAllocsPass : Pass<"qimeng-device-allocs", "ModuleOp"> {
  let summary = "Allocate the temporaries that GPU kernels use on the device";
  let description = [{
    Bufferization leaves a function's temporaries (e.g. the row maxima of a
    softmax) as host `memref.alloc`s, which a kernel cannot read. In every
    function that launches kernels, each `memref.alloc` used by a
    `gpu.launch` becomes a `gpu.alloc`:

    - used only by kernels (directly or through views): device memory,
      freed by a `gpu.dealloc` where it was freed before or, when nothing
      freed it, at the end of its block (the runtime takes it from a
      stream-ordered pool, so a call costs no `cuMemAlloc`);
    - used by kernels and returned to the caller (a result built from
      `tensor.empty`, as frontends write them): device memory that is not
      freed; the caller owns it and frees it (`mgpuMemFree`, or `cuMemFree`
      once the call's stream is done);
    - also used by the host code (a load or store outside the kernels):
      `gpu.alloc host_shared` (CUDA managed memory, which both sides can
      access), its `memref.dealloc` a `gpu.dealloc`;
      `qimeng-sync-managed-allocs` keeps these synchronous after
      `gpu-async-region`.

    Dynamic sizes are kept; a layout, a memory space or symbol operands are
    reported as unsupported.

    A constant global (`memref.get_global`, in host memory) that a kernel
    reads gets a device copy where it is taken (`gpu.alloc`, `gpu.memcpy`),
    placed and freed by the same rules; the kernels read the copy.

    Example:

    ```mlir
    %t = memref.alloc() : memref<1024xf32>
    gpu.launch ... { ... memref.store %v, %t[%i] ... }
    return
    // becomes
    %t = gpu.alloc () : memref<1024xf32>
    gpu.launch ... { ... memref.store %v, %t[%i] ... }
    gpu.dealloc %t : memref<1024xf32>
    return
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def QiMengSyncManagedAllocsPass
    : Pass<"qimeng-sync-managed-allocs", "func::FuncOp"> {
  let summary = "Take managed allocations out of the asynchronous stream";
  let description = [{
    Runs after `gpu-async-region`, which makes every `gpu.alloc` an async op
    on the function's stream. The GPU-to-LLVM lowering allocates managed
    memory (`host_shared`) only synchronously, and leaves an async one
    unlowered (an `unrealized_conversion_cast` that no LLVM translation
    takes). Each async `gpu.alloc host_shared` becomes: a host wait for its
    dependencies, the synchronous allocation, and a fresh token for the ops
    that waited on it.

    ```mlir
    %m, %t = gpu.alloc async [%dep] host_shared () : memref<64xf32>
    // becomes
    gpu.wait [%dep]
    %m = gpu.alloc host_shared () : memref<64xf32>
    %t = gpu.wait async
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def QiMengRecordSignaturesPass : Pass<"qimeng-record-signatures", "ModuleOp"> {
  let summary = "Record each public function's memref signature for runners";
  let description = [{
    Lowering to LLVM expands every memref argument into pointers and
    integers, and drops what a runner needs to call the function: the memref
    types and which arguments the function writes. This pass (the first step
    of `--lower-to-nvvm`) records both on every public function with a body,
    as discardable attributes that survive the lowering to `llvm.func`:

    ```mlir
    func.func @relu(%x: memref<8xf32>, %y: memref<8xf32>)
        attributes {qimeng.signature = (memref<8xf32>, memref<8xf32>) -> (),
                    qimeng.written_args = array<i1: false, true>}
    ```

    An argument counts as written when an op inside the function has a
    memory write effect on it or on a view of it. `qimeng-run` reads the
    attributes to run modules that are already lowered.
  }];
}

def QiMengCheckKernelNamesPass
    : Pass<"qimeng-check-kernel-names", "ModuleOp"> {
  let summary = "Reject kernel module symbols that cannot be PTX names";
  let description = [{
    Every symbol of a `gpu.module` (the outlined kernels, named after the
    function they came from, and their workgroup globals) becomes a PTX
    symbol, and PTX names are identifiers: a letter, or `_`, `$` or `%`
    followed by more; then letters, digits, `_` and `$`. MLIR symbols may
    hold any bytes (`@"my kernel"`), and LLVM's NVPTX backend cannot quote
    a name: it aborts the process. This pass (a step of `--lower-to-nvvm`,
    after kernel outlining) reports such a name as an error on the symbol
    instead, asking for the function to be renamed.

    ```mlir
    func.func @"relu.v2"(...)  // error: kernel module symbol 'relu.v2_kernel'
                               // cannot be a PTX name
    ```
  }];
}

def QiMengIntegerPowersPass : Pass<"qimeng-integer-powers", "ModuleOp"> {
  let summary = "Integer powers as multiplications, or with an i32 exponent";
  let description = [{
    `math.fpowi` with a constant exponent (torch's `x ** 2`) becomes
    multiplications by squaring, in the order libdevice's `__nv_powif` uses
    (odd bits from the lowest, a reciprocal for a negative exponent), so it
    costs a multiply instead of a call. Any other `math.fpowi` gets an i32
    exponent: the NVVM lowering calls `__nv_powif(float, int)` /
    `__nv_powi(double, int)` with the operand as it is, and an i64 exponent
    (what torch-mlir writes) made a call through a mismatched prototype:
    undefined behaviour in the PTX. Exponents outside the i32 range are
    clamped to the nearest one of the same parity, which gives the same
    result for every base.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def QiMengReinterpretDynamicExpandsPass
    : Pass<"qimeng-reinterpret-dynamic-expands", "ModuleOp"> {
  let summary = "Reshapes into several dynamic sizes as explicit views";
  let description = [{
    A `memref.expand_shape` that splits one dimension into two or more
    dynamic ones (torch-mlir's Linear over a dynamic batch of sequences:
    the rows of its 2-D matmul expanded back into batch and sequence)
    crashes MLIR 22's `expand-strided-metadata`, which both the GPU lowering
    and the verifier's host pipeline run. On a buffer with the identity
    layout (what QiMeng's bufferization gives kernel arguments and results)
    the expanded view is row-major over the given sizes: the pass writes it
    as a `memref.reinterpret_cast` with those sizes and their suffix
    products as strides. Any other such reshape is refused with a
    diagnostic at the op instead of a crash.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def QiMengLowerBf16MmaSyncPass
    : Pass<"qimeng-lower-bf16-mma-sync", "ModuleOp"> {
  let summary = "bf16 nvgpu.mma.sync as NVVM's mma.sync";
  let description = [{
    Upstream's `convert-nvgpu-to-nvvm` (MLIR 22) lowers `nvgpu.mma.sync`
    with f16, tf32, f64 and integer operands, but fails on bf16 ones
    ("failed to deduce operand PTX types"), although sm_80 has the
    instruction (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`, and
    m16n8k8). This pass, a step of `--lower-to-nvvm` before the upstream
    pipeline, rewrites each bf16 `nvgpu.mma.sync` as `nvvm.mma.sync`: each
    row of the A and B fragments (two bf16 values) becomes the 32-bit
    register the instruction takes (`vector.bitcast`), the f32 accumulator's
    elements are passed in row order, and the result struct is gathered
    back into the accumulator's vector type. An accumulator that is not f32
    (the instruction has none) is refused with a diagnostic at the op.

    Example:

    ```mlir
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>)
        -> vector<2x2xf32>
    // becomes four and two i32 registers, four f32 values, and
    %r = nvvm.mma.sync A[...] B[...] C[...] {... multiplicandAPtxType =
        #nvvm.mma_type<bf16> ...} : (i32, i32, f32) -> !llvm.struct<(...)>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def QiMengLowerFragmentVectorsPass
    : Pass<"qimeng-lower-fragment-vectors", "gpu::GPUModuleOp"> {
  let summary = "n-D vector broadcasts and shape casts in kernels as inserts";
  let description = [{
    Tensor-core fragments stay 2-D vectors to the end (`nvgpu.mma.sync`
    takes `vector<1x1xf64>` and `vector<1x2xf64>` operands for f64's
    m8n8k4), while the rest of a kernel is 1-D by then. Upstream's
    vector-to-mma.sync conversion builds such a fragment as a
    `vector.broadcast` of a 1-D load to 2-D, which `convert-gpu-to-nvvm`
    cannot lower (upstream lowers n-D broadcasts in a pre-step that pipeline
    does not run). This pass (a step of `--lower-to-nvvm`, right before
    `convert-gpu-to-nvvm`, after the last canonicalization, which would turn
    the result back into a broadcast) applies upstream's broadcast lowering
    patterns, with folding: the fragment becomes a `vector.insert` into a
    poison vector, which lowers to `llvm.insertvalue`. The same holds for a
    `vector.shape_cast` to 2-D that the last canonicalization makes of a
    transposed `(1, n)` vector (a transpose through shared memory with an
    elementwise op on the values, `vector<8xf32>` to `vector<8x1xf32>`):
    upstream's shape-cast lowering turns it into extracts and inserts.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def QiMengCheckBinariesPass : Pass<"qimeng-check-binaries", "ModuleOp"> {
  let summary = "Reject PTX that calls libdevice functions left unlinked";
  let description = [{
    Math on the GPU (`exp`, `tanh`, `log`, ...) lowers to calls of CUDA's
    libdevice (`__nv_expf`, ...), which the serialization links only when it
    finds a CUDA toolkit. Without one, upstream silently emits PTX with
    `.extern .func __nv_*` declarations that no driver can load. This pass
    (the last step of `--lower-to-nvvm`) turns that into an error on the
    `gpu.binary`, naming the function and the fix (`CUDA_HOME`).
  }];
}

def QiMengContractFloatOpsPass
    : Pass<"qimeng-contract-float-ops", "gpu::GPUModuleOp"> {
  let summary = "Let the kernels' float multiplies and adds fuse into FMAs";
  let description = [{
    Marks every `arith.mulf`, `arith.addf` and `arith.subf` in a kernel
    module, and their LLVM forms (`llvm.fmul`, `llvm.fadd`, `llvm.fsub`:
    the kernels are partly lowered by then), `contract` (kept with their
    other fast-math flags), so the NVPTX
    backend fuses a multiply feeding an add into `fma.rn`, as `nvcc` does by
    default (`--fmad=true`). Without the flag LLVM keeps them apart and
    emits `mul.rn` and `add.rn`, which also keep `ptxas` from fusing them:
    a thread-per-output convolution or any scalar product loop ran a
    multiply and an add per term. A fused result is rounded once instead of
    twice. A step of `--lower-to-nvvm` unless `fmad=false`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def QiMengStripBuildTimesPass : Pass<"qimeng-strip-build-times", "ModuleOp"> {
  let summary = "Drop compile-time measurements from gpu.binary objects";
  let description = [{
    Upstream's serialization records how long each step took in the
    properties of every `gpu.object` (`LLVMIRToISATimeInMs`,
    `ISAToBinaryTimeInMs`), so two compiles of the same input differ. This
    pass (a step of `--lower-to-nvvm`) removes every property whose name ends
    in `TimeInMs`, which makes the output byte for byte reproducible (the
    offline replay of an LLM session depends on it).
  }];
}

def QiMengDumpPTXPass : Pass<"qimeng-dump-ptx", "ModuleOp"> {
  let summary = "Write the PTX of every gpu.binary to files";
  let description = [{
    For each `gpu.binary` holding PTX (format `isa`), writes
    `<dir>/<binary name>.ptx`. Files are written atomically.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\".\"",
           "Directory to write the .ptx files to">
  ];
}

def QiMengExportLaunchesPass : Pass<"qimeng-export-launches", "ModuleOp"> {
  let summary = "Describe every kernel launch of the host code as JSON";
  let description = [{
    After kernel outlining, writes one JSON record per `gpu.launch_func` in
    host order: the host function, the kernel, grid and block sizes, and for
    each kernel operand where it comes from (a host function argument, a
    host allocation, or a constant) with its type. A runtime or a test harness
    uses it to launch the kernels of a function from their PTX.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to ('-' for stdout)">
  ];
}

def QiMengAttachNVVMTargetsPass
    : Pass<"qimeng-attach-nvvm-targets", "ModuleOp"> {
  let summary = "Attach NVVM targets, sm_90a for kernels that need it";
  let description = [{
    Upstream's `nvvm-attach-target`, in the place `--lower-to-nvvm` gives it,
    with one difference: a kernel module that uses warpgroup instructions
    (`nvvm.wgmma.*`, `nvvm.setmaxregister`, `nvgpu.warpgroup.*`), which only
    the architecture-specific sm_90a has, is compiled for sm_90a (PTX 8.0 or
    later) when the chip is sm_90; for another chip that is an error naming
    the kernel module. (Upstream's pass gives every module the same target,
    and an sm_90 target makes such a module invalid at once.)

    Also, a kernel module's dynamic shared array (`__qimeng_dynamic_shared`,
    private on the host) becomes public, which the NVPTX backend prints as
    one `.extern .shared` array with its 1024-byte alignment: a private
    zero-sized global becomes a 1-byte static variable of its own, at
    another address than the one TMA writes.
  }];
  let options = [
    Option<"optLevel", "O", "unsigned", "2", "Optimization level">,
    Option<"triple", "triple", "std::string", "\"nvptx64-nvidia-cuda\"",
           "Target triple">,
    Option<"chip", "chip", "std::string", "\"sm_50\"", "Target chip">,
    Option<"features", "features", "std::string", "\"+ptx60\"",
           "Target features">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def QiMengTensorMapArgsPass : Pass<"qimeng-tensor-map-args", "ModuleOp"> {
  let summary = "Pass TMA descriptors to outlined kernels as pointers";
  let description = [{
    Runs after kernel outlining. A kernel argument of type
    `!nvgpu.tensormap.descriptor` (a tensor map made on the host, which the
    kernel reads TMA copies through) becomes an `!llvm.ptr` (what the
    descriptor lowers to: the map's address in device memory), cast back at
    the kernel's entry and cast at each launch; the casts cancel when the
    nvgpu ops are lowered. Upstream's GPU-to-NVVM conversion of the kernel
    signature does not know the nvgpu type.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // QIMENG_TRANSFORMS_GPU_PASSES_TD
