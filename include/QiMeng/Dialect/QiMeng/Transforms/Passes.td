//===- Passes.td - QiMeng passes ---------------------------*- tablegen -*-===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD
#define QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QiMengExportPlanJSONPass : Pass<"qimeng-export-plan-json", "ModuleOp"> {
  let summary = "Write every qimeng.plan of the module as JSON";
  let description = [{
    Writes a JSON array with the JSON form of each `qimeng.plan` in the module
    (the form an LLM planner answers in) to the file given by `output`
    (`-` is stdout). The module is left unchanged. The file is written
    atomically: on failure no partial file is left.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to ('-' for stdout)">
  ];
}

def QiMengImportPlanJSONPass : Pass<"qimeng-import-plan-json", "ModuleOp"> {
  let summary = "Add a qimeng.plan read from JSON to the module";
  let description = [{
    Reads a plan (one JSON object) or a list of plans (a JSON array) from the
    file `input`, checks it exactly as the verifiers check textual IR, and adds
    it to the module, replacing any plan for the same kernel. Errors name the
    JSON path of the offending element.
  }];
  let options = [
    Option<"input", "input", "std::string", /*default=*/"",
           "JSON file holding the plan(s)">
  ];
}

def QiMengStripPlansPass : Pass<"qimeng-strip-plans", "ModuleOp"> {
  let summary = "Remove qimeng.plan ops and qimeng.tag attributes";
  let description = [{
    Removes every `qimeng.plan` and every `qimeng.tag` attribute, leaving the
    payload program as it was before planning.
  }];
}

def QiMengSplitReductionsPass
    : Pass<"qimeng-split-reductions", "ModuleOp"> {
  let summary = "Split reductions with too few outputs to fill the GPU";
  let description = [{
    Runs after `qimeng-prepare`, on tensors. A reduction (or matrix-vector
    product) whose outputs, times the threads the built-in plans give each
    (a warp when the reduction loops are innermost, else one thread), give
    the GPU fewer than 512 threads per SM is split into a partial reduction
    with an extra parallel loop of K parts and a combining reduction over
    the parts (upstream `linalg::splitReduction`). K is the smallest power
    of two that reaches 1024 threads per SM, halved until it divides the reduction and
    leaves each part at least 256 elements (warp) or 8 (thread). Before the
    split, unit output dimensions that a keepdim reduction writes as
    constant 0 are dropped (collapse/expand of the output) and adjacent
    reduction loops that are contiguous in every operand are collapsed into
    one. Pooling, ops with several outputs or combiners, dynamic shapes and
    index reads are left alone.

    A convolution whose outputs, in the largest boxes the planner gives a
    thread (getConvolutionBox), leave fewer than 1024 threads per SM, each
    output a sum of 256 products or more, has its channel loop (the
    outermost reduction loop that the window input and the weights both read
    as an index of their own) split into S parts: the input and the weights
    are reshaped (C into S x C/S), a convolution with an outer parallel loop
    over the parts writes S partial outputs from zero, and a reduction over
    the parts adds them onto the original output. S is the smallest power of
    two that reaches those threads, halved until it divides C in parts of at
    least 64 products. f32, f64 and integer sums only (a long f16 or bf16
    sum in another order leaves the verifier's tolerance), static shapes
    only; depthwise convolutions and ones with their padding folded into the
    read are left alone.

    A row-major f32 matmul whose 64 x 64 output tiles give fewer than half
    the SMs a block and whose K is at least 8 times M and N has K split into
    S parts (S the smallest power of two that gives every SM a block, halved
    until it divides K in parts of at least 256): A's parts are copied
    batch-first (`linalg.transpose`), B's are a reshape, a
    `linalg.batch_matmul` computes the S partial products and a reduction
    adds them into the output. Other matmuls are left alone.

    Example (softmax's row maximum over 16 rows of 16384 on sm_90):

    ```mlir
    %m = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<16x16384xf32>) outs(%init : tensor<16xf32>) ...
    // becomes 16 x 64 partial maxima of 256 elements each, then their max
    %p = linalg.generic {iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xs : tensor<16x64x256xf32>) outs(%pinit : tensor<16x64xf32>) ...
    %m = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%p : tensor<16x64xf32>) outs(%init : tensor<16xf32>) ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target profile whose SM count sets the threads to fill">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def QiMengOnlineSoftmaxPass : Pass<"qimeng-online-softmax", "ModuleOp"> {
  let summary = "One reduction for a row's maximum and sum of exponentials";
  let description = [{
    Runs after `qimeng-split-reductions`, on tensors. Softmax and log-softmax
    reach it as a row maximum `m` (a `maxnumf` or `maximumf` reduction from a
    fill of NaN or -inf) and a sum of `exp(x - m)` over the same rows of the
    same input (from a fill of 0). The two become one reduction with two
    outputs that keeps the sum relative to the running maximum (one
    exponential per element; `OnlineSums.h` gives the step and how partial
    results combine), so the kernel reads each row once before the
    normalisation instead of twice. Left alone: rows shorter than a warp
    (static, under 32 elements: the planner gives each a thread reading it
    in 128-bit vectors), reductions split across blocks, a maximum read
    before the sum is computed, anything else.

    Example (softmax's reductions over 256 rows of 500):

    ```mlir
    %m = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<256x500xf32>) outs(%nan_fill : tensor<256xf32>) {max}
    %s = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x, %m : ...) outs(%zero_fill : tensor<256xf32>) {sum of exp(x - m)}
    // becomes
    %ms:2 = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<256x500xf32>)
        outs(%neg_inf_fill, %zero_fill : tensor<256xf32>, tensor<256xf32>)
        {online step}
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect"];
}

def QiMengPlanPass : Pass<"qimeng-plan", "ModuleOp"> {
  let summary = "Plan every kernel with the built-in planner";
  let description = [{
    For every function with a body, tags each root linalg operation
    (`qimeng.tag`), classifies it (contraction, elementwise, reduction,
    convolution, ...) and emits a `qimeng.plan` with concrete parameters chosen
    from the shapes, element types and the target profile. Functions that
    already have a plan are left alone. The heuristics are deterministic and
    documented in docs/planner.md.

    With `naive=true` every op gets the plain plan (one thread per output
    element, reductions serial in the thread, no shared memory, vectors,
    pipelines, tensor cores, warp reductions or fusion): the verifier's
    independent reference.

    With `tf32=true` (qimeng-opt's `--allow-tf32`) f32 matmuls on whole
    tiles take the tensor cores (`mma_sync [16, 8, 8] (tf32, tf32) -> f32`):
    their products keep 10 bits of mantissa, which the user has to ask for.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU profile (sm_80, sm_90)">,
    Option<"naive", "naive", "bool", /*default=*/"false",
           "Plain plans only (the verifier's reference)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "f32 matmuls may take the tensor cores as tf32 (--allow-tf32)">
  ];
  let dependentDialects = ["::mlir::qimeng::QiMengDialect"];
}

def QiMengTunePass : Pass<"qimeng-tune", "ModuleOp"> {
  let summary = "Tuned plans: from the tuning database, or by measured search";
  let description = [{
    Runs after the built-in planner, before the LLM planner. For each kernel
    with a built-in plan it computes the kernel's fingerprint and looks it up
    in the tuning database (`--tuning-db`, default
    `$XDG_CACHE_HOME/qimeng/tuning.db`) under the GPU (the first visible
    one's name, or any GPU of the target when none is visible) and the
    QiMeng version. A stored plan replaces the built-in one with provenance
    `tuned`, and neither a search nor an LLM runs for that kernel.

    With `--qimeng-search=N` and no stored plan, up to N candidate plans
    around the built-in one (legal, pruned by the cost model) are compiled in
    parallel, verified and timed on the GPU (the benchmark's protocol, one
    worker per GPU of the same model), each gets the shaped reward, all are
    stored, and the fastest correct one replaces the built-in plan with
    provenance `tuned` (docs/tuning.md). `--qimeng-search-budget` bounds
    the seconds per kernel. A search needs a GPU: without one it fails.

    The compile report (`--qimeng-report`) gets a `tuning` entry per kernel.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU profile (sm_80, sm_90)">,
    Option<"tuningDB", "tuning-db", "std::string", /*default=*/"\"\"",
           "The tuning database (\"\": the default path, off: none)">,
    Option<"searchCandidates", "search", "unsigned", /*default=*/"0",
           "Candidate plans to measure per kernel without a stored plan (0: "
           "no search)">,
    Option<"searchBudgetSeconds", "search-budget", "double", /*default=*/"0",
           "Seconds of search per kernel (0: no limit)">,
    Option<"searchSeed", "search-seed", "uint64_t", /*default=*/"0",
           "Seed of the candidates' order">,
    Option<"searchLLMSamples", "search-llm-samples", "unsigned",
           /*default=*/"4",
           "Plans sampled from the LLM planner as extra candidates">,
    Option<"trials", "trials", "unsigned", /*default=*/"3",
           "Verification trials of the search's final check">,
    Option<"planRounds", "llm-rounds", "unsigned", /*default=*/"3",
           "LLM rounds per sampled plan (--llm-plan-rounds)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "The plans may compute f32 matmuls as tf32 (--allow-tf32): tuned "
           "plans are stored and looked up apart from f32 ones">
  ];
  let dependentDialects = ["::mlir::qimeng::QiMengDialect"];
}

def QiMengLLMPlanPass : Pass<"qimeng-llm-plan", "ModuleOp"> {
  let summary = "Ask the configured LLM for each kernel's plan";
  let description = [{
    Runs after the built-in planner (`qimeng-plan`). When an LLM endpoint is
    configured (docs/llm.md), each built-in plan's kernel is described to the
    LLM (sanitized IR, family, shapes, FLOPs and bytes, the target, the
    actions' JSON schema, the built-in plan and an example plan) and the
    reply is checked: by the schema, by the op verifiers against the kernel
    and by the resource checks (threads and shared memory per block,
    registers per thread, tiles within the loops). A rejected plan is sent
    back with its errors for up to `rounds` rounds (the first included);
    then the built-in plan stays, and a line on stderr says why. An accepted
    plan replaces the built-in one with provenance `llm:<model>` and the
    attributes `qimeng.llm_rounds` and `qimeng.llm_cache_key`.

    A plan that computes f32 matmuls as tf32 is sent back unless `tf32`
    (qimeng-opt's `--allow-tf32`) allows it.

    With no endpoint configured the plans are left as they are. Either way
    each kernel's final plan goes into the compile report
    (`--qimeng-report`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU profile (sm_80, sm_90)">,
    Option<"rounds", "rounds", "unsigned", /*default=*/"3",
           "LLM rounds per plan, the first included (--llm-plan-rounds)">,
    Option<"tuningDB", "tuning-db", "std::string", /*default=*/"\"\"",
           "The tuning database the planner's examples come from (\"\": the "
           "default path, off: none)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "The LLM's plans may compute f32 matmuls as tf32 (--allow-tf32)">
  ];
  let dependentDialects = ["::mlir::qimeng::QiMengDialect"];
}

def QiMengExportTransformPass : Pass<"qimeng-export-transform-script", "ModuleOp"> {
  let summary = "Write each plan as a transform script upstream tools apply";
  let description = [{
    Runs where the plans are realized (after bufferization; `--llm-plan`
    adds it before `qimeng-apply-plan` when `--qimeng-export-transform` is
    given). It writes to `output` the transform-dialect operations the
    built-in micro-coder would apply for every kernel, as a module with a
    `@__transform_main` that upstream `mlir-opt --transform-interpreter`
    applies to the original input (on tensors): it bufferizes like
    `--llm-plan`, tags the kernel's linalg ops as the planner did (checking
    their names), runs the plan's sequences and cleans up (docs/tuning.md).

    The module is left unchanged; files are written atomically.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "File for the mlir-opt --transform-interpreter script">
  ];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::nvgpu::NVGPUDialect"];
}

def QiMengExportIREESpecPass : Pass<"qimeng-export-iree-tuning-spec", "ModuleOp"> {
  let summary = "Write the plans as a tuning spec for IREE's CUDA backend";
  let description = [{
    Writes `output`: a transform library in IREE 3.13's tuning-spec form.
    For each kernel whose plan tiles a contraction, a matcher of IREE's own
    match ops (a contraction with the kernel's element types and
    batch/M/N/K sizes) whose action annotates the dispatch's root with a
    `#iree_codegen.compilation_info` for IREE's TileAndFuse pipeline,
    translated from the plan: block tile to `workgroup`, reduction tile to
    `reduction`, thread tile to `thread` and the workgroup size, warp tile
    and tensor-core action to `subgroup` and `mma_kind`, promoted inputs to
    `promote_operands`, pipeline stages to `prefetch_num_stages`. Other
    kernels (reductions, elementwise ops, convolutions, dynamic sizes) keep
    IREE's own configuration; a warning names each with the reason
    (docs/iree.md). `--llm-plan` runs it when `--qimeng-export-iree-spec`
    is given. The module is left unchanged; the file is written atomically.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File for the tuning spec (- for stdout)">
  ];
}

def QiMengEmitTritonPass : Pass<"qimeng-emit-triton-kernels", "ModuleOp"> {
  let summary = "Write each planned kernel as a @triton.jit kernel";
  let description = [{
    For every kernel with a plan (on tensors, before bufferization), writes
    `<output-dir>/<kernel>.py`: one `@triton.jit` kernel realizing the plan
    (block tile to BLOCK sizes, threads to `num_warps`, pipeline stages to
    `num_stages`), its compile-only signature, and `launch(*args)` on torch
    tensors; and `<output-dir>/manifest.json` naming the kernels written
    and, for the others, why not (a warning each). Covered: elementwise
    ops, reductions and the ops on their results (softmax, norms), and
    contractions with elementwise producers and epilogues (docs/triton.md).
    `--llm-plan` runs it when `--qimeng-emit-triton=DIR` is given. The
    module is left unchanged; files are written atomically.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\".\"",
           "Directory the Triton modules are written to">
  ];
}

def QiMengApplyPlanPass : Pass<"qimeng-apply-plan", "ModuleOp"> {
  let summary = "Realize every qimeng.plan with the built-in micro-coder";
  let description = [{
    Applies the actions of each plan to its kernel, in order, with MLIR's own
    transformations (driven through the transform dialect): tiling to blocks,
    threads and serial reduction loops, promotion to shared memory,
    vectorization and unrolling; then maps the tiled loops to `gpu.launch`,
    software-pipelines the shared-memory copies of the loops that a pipeline
    action names (multi-buffered tiles filled with `cp.async`), and lowers
    vectors to what the NVVM backend accepts. Each action is one step; a step that
    fails is reported with the action's location. The kernel must be on
    memrefs (the `--llm-plan` pipeline bufferizes first). Consumes the plans.

    With `steps=N` only the first N actions are applied and the kernel is not
    mapped to the GPU: this shows what each action does on its own.
  }];
  let options = [
    Option<"steps", "steps", "int", /*default=*/"-1",
           "Apply only the first N actions (and do not map to the GPU)">
  ];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::nvgpu::NVGPUDialect"];
}

def QiMengMicroCodePass : Pass<"qimeng-micro-code", "ModuleOp"> {
  let summary = "Realize every plan step by step, each step verified";
  let description = [{
    The micro-coding loop (docs/micro-coding.md). Each plan is realized in
    steps: an action, or the few actions that only make a runnable kernel
    together. With an LLM configured (docs/llm.md) the LLM writes each step
    as the whole kernel function, from the current verified implementation,
    the specification (the kernel before realization) and the step's
    actions. Every candidate is parsed in a context of the allowed dialects
    only and checked (same signature, no calls, no memory but the arguments
    and the kernel's own), lowered to PTX and run on the GPU against the
    specification (`qimeng-run --verify` in a child process). A failure goes
    back to the LLM with the diagnostic for up to `--llm-code-rounds`
    rounds; then QiMeng rolls back to the last verified implementation and
    realizes the step with the built-in micro-coder (while no LLM-written
    step was taken; else the step is skipped). Without an LLM every step is
    the built-in one, verified all the same.

    Without a GPU, steps are checked as far as possible (parse, checks,
    lowering to PTX) and marked unverified in the report;
    `--require-gpu-verification` makes that an error. Kernels must be on
    memrefs. Consumes the plans.
  }];
  let options = [
    Option<"rounds", "rounds", "unsigned", /*default=*/"3",
           "LLM rounds per step, the first try included (--llm-code-rounds)">,
    Option<"trials", "trials", "unsigned", /*default=*/"3",
           "Verification trials per step (--verify-trials)">,
    Option<"requireGpuVerification", "require-gpu-verification", "bool",
           /*default=*/"false",
           "Fail when a step cannot run on a GPU instead of marking it "
           "unverified">,
    Option<"allowUnverified", "allow-unverified", "bool", /*default=*/"false",
           "Keep LLM-written steps that could not run for want of a GPU "
           "(marked unverified) instead of rolling them back">
  ];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::nvgpu::NVGPUDialect"];
}

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD
