//===- QiMengTransformOps.td - QiMeng transform ops --------*- tablegen -*-===//
//
// Transform-dialect operations for the steps of QiMeng's micro-coder that
// have no upstream transform op. They extend the transform dialect
// (`transform.qimeng.*`), so a plan's realization stays a transform script.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def QiMeng_MapForallToGridOp
    : Op<Transform_Dialect, "qimeng.map_forall_to_grid",
         [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
          TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Map a block-level scf.forall of any size onto a gpu.launch grid";
  let description = [{
    Turns a normalized `scf.forall` on buffers whose loops are mapped to
    `#gpu.block<x>`, `#gpu.block<y>` and `#gpu.block<z>` into a `gpu.launch`
    whose grid is the loop's trip counts, computed at run time: unlike
    upstream's `transform.gpu.map_forall_to_blocks`, the trip counts may be
    dynamic (a batch dimension whose size only the caller knows).

    When every trip count is static and fits the grid's limits (y and z at
    most 65535), the grid has the loop's shape. Otherwise the blocks are
    numbered along x alone (up to 2^31 - 1 blocks) and each block recovers
    its loop indices from its number (`affine.delinearize_index`), so any
    size runs. The launch has one thread per block;
    `transform.gpu.map_nested_forall_to_threads` sets the threads after.

    Returns the new `gpu.launch`. Fails (silenceably) on a forall that is not
    normalized, has results, or whose mapping is not made of block ids.

    ```mlir
    scf.forall (%i, %j) in (%n, 4) {
      ...
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    // with
    %launch = transform.qimeng.map_forall_to_grid %forall
        : (!transform.any_op) -> !transform.any_op
    // becomes
    %blocks = arith.muli %n, %c4 : index
    gpu.launch blocks(%b, %_, %_) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%t, %_, %_) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %ij:2 = affine.delinearize_index %b into (%n, 4) : index, index
      ...
    }
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = "$target attr-dict `:` functional-type($target, $result)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForallOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

// The steps below have no upstream transform op: each rewrites its payload
// in place (the handle stays valid) and fails definitely, with an error on
// the payload op, when the rewrite does not apply.
class QiMeng_InPlaceStepOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, mnemonic,
         !listconcat([DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
                      TransformOpInterface, TransformEachOpTrait], traits)> {
  let results = (outs);
}

def QiMeng_ConvertToMmaSyncOp
    : Op<Transform_Dialect, "qimeng.convert_to_mma_sync",
         [AttrSizedOperandSegments,
          DeclareOpInterfaceMethods<TransformOpInterface>,
          DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Rewrite the contraction of a gpu.launch as mma.sync";
  let description = [{
    Inside the target `gpu.launch` (whose contraction was tiled to warps,
    promoted and vectorized with the tensor-core shape), turns the
    `vector.contract` into `nvgpu.mma.sync` (m16n8k16 for f16 and bf16
    operands, m8n8k4 for f64, m16n8k8 or m16n8k4 for f32 ones) and the reads
    of its operands from shared memory into `nvgpu.ldmatrix` where the layout
    allows, using upstream's vector-to-GPU conversion.

    Upstream's conversion knows f16 fragments only. bf16 ones have the same
    layouts, loads and shapes: a launch with bf16 contractions is retyped to
    f16 for the conversion and back afterwards (its `nvgpu.mma.sync` ops
    keep bf16 operands, which `qimeng-lower-bf16-mma-sync` lowers). A launch
    that also defines f16 values is refused.

    f32 operands are computed as tf32 (10 bits of mantissa) and only with
    `tf32`, the explicit request for that precision; without it an f32
    contraction is an error.

    With `fill`, a handle to one constant `linalg.fill` of the contraction's
    output (outside the launch, before it), the fill runs in the kernel: the
    accumulators start from its value in registers instead of being read
    from the output, and the fill is erased (the handle is consumed). It
    fails when anything between the fill and the launch uses the buffer, or
    the launch reads the output anywhere but once before its reduction loop.

    With `consumer`, a handle to one elementwise `linalg.generic` on the
    contraction's output (outside the launch, after it), the consumer runs in
    the kernel's epilogue: where the accumulators are stored, its body
    computes on them and its output is written (the output itself too,
    unless it is a temporary of the two); the consumer is erased (the handle
    is consumed).

    ```mlir
    %launch = transform.structured.match ops{["gpu.launch"]}
        attributes {qimeng.target = "mm"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.qimeng.convert_to_mma_sync %launch : !transform.any_op
    transform.qimeng.convert_to_mma_sync %launch tf32 : !transform.any_op
    transform.qimeng.convert_to_mma_sync %launch
        fill(%fill : !transform.any_op) consumer(%bias : !transform.any_op)
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformHandleTypeInterface>:$fill,
                       Optional<TransformHandleTypeInterface>:$consumer,
                       UnitAttr:$tf32);
  let assemblyFormat =
      "$target (`fill` `(` $fill^ `:` type($fill) `)`)? "
      "(`consumer` `(` $consumer^ `:` type($consumer) `)`)? "
      "(`tf32` $tf32^)? attr-dict `:` type($target)";
}

def QiMeng_DistributeOverLanesOp
    : QiMeng_InPlaceStepOp<"qimeng.distribute_over_lanes"> {
  let summary = "Share a warp-tiled linalg op among the lanes of each warp";
  let description = [{
    Inside the target `gpu.launch`, the linalg op tagged `op_tag` (tiled to
    warps: one row or one output element per warp) is computed by the 32
    lanes of the warp together: each lane strides over the row (coalesced
    reads); a reduction's partial results are combined with
    `gpu.subgroup_reduce`.

    With `lanes` above 32 (a multiple of 32, at most 1024, the launch's
    threads along x), the op is one tile of the block (one row or one output
    element per block) and every thread of the block strides over it; the
    warps' partial results meet in shared memory, and a barrier follows the
    op so the next op of the block reads what it wrote.

    ```mlir
    transform.qimeng.distribute_over_lanes %launch {op_tag = "sum"}
        : !transform.any_op
    transform.qimeng.distribute_over_lanes %launch {op_tag = "sum",
        lanes = 512 : i64} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$op_tag,
                       DefaultValuedAttr<I64Attr, "32">:$lanes);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::gpu::LaunchOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_PadSharedTilesOp
    : QiMeng_InPlaceStepOp<"qimeng.pad_shared_tiles"> {
  let summary = "Pad the rows of a promoted operation's shared-memory tiles";
  let description = [{
    Each shared-memory tile the target (a linalg op that
    `transform.structured.promote` rewrote, with `use_alloca`) reads or
    writes gets `pad` unused elements after each row of its innermost
    dimension: the tile becomes a view of a larger buffer with a row stride
    of `columns + pad`. Rows that map to the same banks (a 64 x 16 f64 tile's
    rows are 128 bytes apart: every row starts at bank 0) spread over the
    banks, so the lanes of a warp that read one column of several rows no
    longer conflict. `pad` times the element size must be a multiple of
    16 bytes, so that rows stay aligned for 128-bit copies.

    ```mlir
    %promoted = transform.structured.promote %mm {operands_to_promote = [0, 1],
        use_alloca, memory_space = #gpu.address_space<workgroup>}
        : (!transform.any_op) -> !transform.any_op
    transform.qimeng.pad_shared_tiles %promoted {pad = 4} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$pad);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::linalg::LinalgOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_HoistStageBuffersOp
    : QiMeng_InPlaceStepOp<"qimeng.hoist_stage_buffers"> {
  let summary = "Give each shared tile of a pipelined loop a typed buffer";
  let description = [{
    The shared-memory tiles the target `scf.for` (a pipelined reduction
    loop, named `name`) fills and reads each iteration become buffers
    allocated before the loop, of static shape and tagged
    `qimeng.stage_buffer`, which `transform.memref.multibuffer` accepts.

    ```mlir
    %loop = transform.structured.match ops{["scf.for"]}
        attributes {qimeng.loop = "mm.2"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.qimeng.hoist_stage_buffers %loop {name = "mm.2"}
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_MoveReductionLoopsInnermostOp
    : Op<Transform_Dialect, "qimeng.move_reduction_loops_innermost",
         [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
          TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Order a linalg op's loops parallel first, reductions last";
  let description = [{
    Rewrites each target linalg op (named ops are generalized) so that its
    parallel loops come first and its reduction loops last, each kind in
    its order. Lowered to loops, every output element is then reduced by an
    innermost loop, whose accumulator `hoist_loop_accumulators` keeps in a
    register. The order in which each output element is reduced does not
    change. Ops already in that order are returned as they are.

    ```mlir
    %inner = transform.qimeng.move_reduction_loops_innermost %ops
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = "$target attr-dict `:` functional-type($target, $result)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::linalg::LinalgOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_LowerRegisterBlocksOp
    : QiMeng_InPlaceStepOp<"qimeng.lower_register_blocks"> {
  let summary = "Lower each thread's small box of reduced outputs to loops "
                "that keep them in registers";
  let description = [{
    Lowers every linalg op on buffers nested in the target whose loops are
    static, that has a reduction loop and whose parallel loops span between
    2 and 64 output elements (a thread's box of outputs: several filters and
    pixels of a convolution) to one nest of `scf.for` over its reduction
    loops, in their order, that carries all those outputs as values: each
    iteration computes the op's body for every output element of the box,
    unrolled, and the outputs are loaded before the nest and stored after
    it. An input element that several outputs read (an image pixel every
    filter multiplies) is then read once per iteration instead of once per
    output, and no output goes through memory inside the nest. Each output
    element is reduced in the same order as by `convert_to_loops` after
    `move_reduction_loops_innermost`.

    Ops that do not qualify (dynamic or larger boxes, an input viewing the
    buffer of an output, a body op that writes memory) are left for
    `convert_to_loops`; the step never fails.

    ```mlir
    transform.qimeng.lower_register_blocks %kernel : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_HoistLoopAccumulatorsOp
    : QiMeng_InPlaceStepOp<"qimeng.hoist_loop_accumulators"> {
  let summary = "Keep the accumulators of serial loops in registers";
  let description = [{
    In every `scf.for` nested in the target (innermost first), a
    `memref.store` (or an unmasked, in-bounds `vector.transfer_write` to a
    memref) of the loop body to a location that does not change with the
    iteration becomes a loop-carried value: one read before the loop, one
    store after it. A thread that reduces serially (an output element per
    thread) then no longer loads and stores its output in every iteration,
    which LLVM cannot undo: it cannot prove that the loop's other loads do
    not alias the output. A warp's accumulator tile read through views of a
    reshaped buffer, which upstream's `hoist_redundant_vector_transfers`
    does not take, is kept in registers the same way.

    A location qualifies when every access in the loop to the allocation or
    argument it views is a read of the same memref and indices (a
    `memref.load`, or a `vector.transfer_read` of the same type, permutation
    and bounds) or that store, directly in the loop body, and every other op
    of the loop names the values it touches (a call keeps the loop as it is;
    a barrier does not, as no other op of the loop touches the location).
    Distinct allocations and arguments are taken not to overlap. Loops that
    do not qualify are left as they are; the step never fails.

    ```mlir
    transform.qimeng.hoist_loop_accumulators %kernel : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_CheckPipelinableOp
    : QiMeng_InPlaceStepOp<"qimeng.check_pipelinable"> {
  let summary = "Check that upstream's pipeliner can take a loop";
  let description = [{
    Fails (definitely, with an error on the loop) when a `vector.transfer_read`
    in the body of the target `scf.for` reads a memref whose memory space is
    not an integer (a `#gpu.address_space`): upstream's software pipeliner
    reads it as an integer and would crash. Modifies nothing.

    ```mlir
    transform.qimeng.check_pipelinable %loop : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def QiMeng_ApplyLowerStridedSlicesPatternsOp
    : Op<Transform_Dialect, "apply_patterns.qimeng.lower_strided_slices",
         [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Lower vector strided slices to shuffles";
  let description = [{
    Collects upstream's patterns that turn `vector.insert_strided_slice` and
    `vector.extract_strided_slice` (left by transposed reads) into
    `vector.shuffle`, `vector.extract` and `vector.insert`, which the NVVM
    backend takes.

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.qimeng.lower_strided_slices
    } : !transform.any_op
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def QiMeng_RewriteMatmulAsWgmmaOp
    : Op<Transform_Dialect, "qimeng.rewrite_matmul_as_wgmma",
         [AttrSizedOperandSegments,
          DeclareOpInterfaceMethods<TransformOpInterface>,
          DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Rewrite a matmul on buffers as a Hopper wgmma + TMA kernel";
  let description = [{
    Replaces the target matmul (`(m, k) x (k, n) -> (m, n)` on buffers, bf16
    or f16 operands, an f32, bf16 or f16 result) by one warp-specialized
    `gpu.launch` for sm_90a: TMA copies of `tile` blocks into `stages`
    128-byte-swizzled shared-memory stages, mbarriers between one producer
    warpgroup and `tile[0] / warpgroup_rows` consumer warpgroups that compute
    with `nvgpu.warpgroup.mma` (f32 accumulators), blocks ordered in groups
    of `group_rows` tile rows, and an epilogue through shared memory that
    adds the accumulator's initial value and converts to the result's type.
    The tensor maps are made on the host (`nvgpu.tma.create.descriptor`).

    With `fill`, the `linalg.fill` of the matmul's output is folded into the
    kernel (its value starts the accumulators) and erased; without, the
    output's contents are added. With `consumer`, an elementwise
    `linalg.generic` over the matmul's (m, n) that reads its result (bias,
    activation, scale, residual, the rounding to a 16-bit type) runs in the
    epilogue on the f32 values and writes its own output; it is erased and
    the matmul's result is never stored. Sizes may be dynamic; TMA's zero fill takes
    the tiles past the edges. Returns the launch (tagged `qimeng.target`
    with `tag`). Fails definitely, with the reason on the payload, when the
    matmul or the options do not qualify.

    ```mlir
    %launch = transform.qimeng.rewrite_matmul_as_wgmma %mm fill %f
        {tag = "matmul0", tile = array<i64: 128, 256, 64>,
         warpgroup_rows = 64, stages = 4, group_rows = 16}
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformHandleTypeInterface>:$fill,
                       Optional<TransformHandleTypeInterface>:$consumer,
                       StrAttr:$tag, DenseI64ArrayAttr:$tile,
                       I64Attr:$warpgroup_rows, I64Attr:$stages,
                       I64Attr:$group_rows);
  let results = (outs TransformHandleTypeInterface:$launch);
  let assemblyFormat = [{
    $target (`fill` $fill^)? (`consumer` $consumer^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD
