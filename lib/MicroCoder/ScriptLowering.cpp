//===- ScriptLowering.cpp - Mapping and lowering sequences ----------------===//
//
// The end of the first sequence (GPU mapping, register accumulators,
// unrolling) and the second and third sequences (asynchronous copies, vector
// lowering, software pipelining, shared globals).
//
//===----------------------------------------------------------------------===//

#include "ScriptBuilder.h"

#include "QiMeng/Dialect/QiMeng/TransformOps/SharedBuffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::microcoder;

/// Maps each target's loops to a gpu.launch of its own, keeps accumulators
/// in registers and unrolls: the end of the first sequence.
void ScriptBuilder::emitMapping() {
  // Map each target's loops to a gpu.launch of its own, named after the
  // target for the steps between sequences. Grids that upstream's
  // map_forall_to_blocks cannot make (dynamic, or beyond the y/z limits)
  // are QiMeng's own mapping's.
  for (auto [i, tag] : llvm::enumerate(tagOrder)) {
    const TargetState &state = targets[tag];
    // Fused ops run in the launch of the target they were fused into; a
    // wgmma kernel made its own.
    if (!state.fusedInto.empty() || state.wgmma)
      continue;
    os << llvm::formatv(
        "    %launch_{0} = {5} : (!transform.any_op) -> !transform.any_op\n"
        "    %mapped_{0} = transform.gpu.map_nested_forall_to_threads "
        "%launch_{0} block_dims = {1} : (!transform.any_op) -> "
        "!transform.any_op\n"
        "    %target_{0} = transform.param.constant {2} -> "
        "!transform.any_param\n"
        "    transform.annotate %mapped_{0} \"{3}\" = %target_{0} : "
        "!transform.any_op, !transform.any_param\n",
        i, list(state.blockDims), quote(tag), kLaunchTargetAttr,
        state.blockHandle,
        state.dynamicGrid
            ? "transform.qimeng.map_forall_to_grid " + state.blockHandle
            : "transform.gpu.map_forall_to_blocks " + state.blockHandle +
                  " generate_gpu_launch");
  }
  std::string k = matchKernel();
  if (vectorized) {
    os << llvm::formatv(
        "    transform.apply_patterns to {0} {{\n"
        "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
        "{1}"
        "      transform.apply_patterns.canonicalization\n"
        "    } : !transform.any_op\n",
        k, foldAliasOps());
    // A contraction written as a generic (a split-K or multi-batch product,
    // a right operand every batch shares) becomes a vector.contract before
    // the unit dimensions go, which leave the reduction reading a broadcast
    // of the products. SIMT: lowered to FMAs (a multiply and an add per
    // term). Tensor cores: upstream's mma.sync conversion takes it, with
    // its operands' extensions folded in (mixed precision).
    for (auto [i, tag] : llvm::enumerate(tagOrder)) {
      const TargetState &state = targets[tag];
      if (state.genericContraction && state.fusedInto.empty() && !state.wgmma)
        os << llvm::formatv(
            "    transform.apply_patterns to %mapped_{0} {{\n"
            "      transform.apply_patterns.vector.reduction_to_contract\n"
            "{1}"
            "      transform.apply_patterns.canonicalization\n"
            "    } : !transform.any_op\n",
            i,
            state.mmaShape.empty()
                ? ""
                : "      "
                  "transform.apply_patterns.vector.fold_arith_extension\n");
    }
    // Unit leading dimensions (a batched matmul's batch of one) go before
    // the accumulators are hoisted into loop-carried vectors.
    os << llvm::formatv(
        "    transform.apply_patterns to {0} {{\n"
        "      "
        "transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n"
        "      transform.apply_patterns.canonicalization\n"
        "    } : !transform.any_op\n",
        k);
    for (auto [i, tag] : llvm::enumerate(tagOrder)) {
      const TargetState &state = targets[tag];
      if (state.mmaShape.empty())
        continue;
      // Mixed-precision contractions (generic bodies vectorize to
      // reductions of products: make them contractions), unrolled to the
      // instruction shape before the accumulators are hoisted (one register
      // tile each).
      os << llvm::formatv(
          "    transform.apply_patterns to %mapped_{0} {{\n"
          "      transform.apply_patterns.vector.reduction_to_contract\n"
          "      transform.apply_patterns.vector.fold_arith_extension\n"
          "      transform.apply_patterns.canonicalization\n"
          "    } : !transform.any_op\n"
          "    transform.apply_patterns to %mapped_{0} {{\n"
          "      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma {1}\n"
          "    } : !transform.any_op\n"
          "    transform.apply_patterns to %mapped_{0} {{\n"
          "      transform.apply_patterns.canonicalization\n"
          "    } : !transform.any_op\n",
          i, list(state.mmaShape));
    }
    // Upstream's hoisting takes accumulators it can see the buffer of, which
    // alias folding gives it; where that folding is off (reshaped buffers),
    // the accumulators read through views are hoisted by QiMeng's step.
    os << llvm::formatv(
        "    transform.apply_cse to {0} : !transform.any_op\n"
        "    {1} = transform.structured.hoist_redundant_vector_transfers {0} : "
        "(!transform.any_op) -> !transform.any_op\n",
        k, fresh("hoisted"));
    k = matchKernel();
    os << llvm::formatv("    transform.qimeng.hoist_loop_accumulators {0} : "
                        "!transform.any_op\n",
                        k);
  }
  for (UnrollOp op : unrolls) {
    std::string loop = matchByAttr("scf.for", kLoopNameAttr,
                                   getLoopName(op.getTarget(), op.getDim()), k,
                                   "!transform.op<\"scf.for\">");
    os << llvm::formatv("    transform.loop.unroll {0} {{factor = {1} : i64} : "
                        "!transform.op<\"scf.for\">\n",
                        loop, op.getFactor());
  }
}

StringRef ScriptBuilder::foldAliasOps() const {
  bool reshaped = false;
  func::FuncOp func = kernel;
  func.walk([&](Operation *op) {
    reshaped |= isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
  });
  return reshaped
             ? ""
             : "      transform.apply_patterns.memref.fold_memref_alias_ops\n";
}

/// The second sequence, run after hoistStageBuffers: the stage buffers of
/// pipelined loops are multi-buffered and filled with asynchronous copies,
/// leftover linalg ops become loops and vectors become 1-D.
void ScriptBuilder::emitLowering() {
  for (PipelineStep &step : pipelines) {
    // Some of these transforms consume their handle: match afresh each time.
    std::string k = matchKernel();
    std::string buffers =
        matchByAttr("memref.alloc", kStageBufferAttr, step.loop, k,
                    "!transform.op<\"memref.alloc\">");
    os << llvm::formatv(
        "    {0} = transform.memref.multibuffer {1} {{factor = {2} : i64, "
        "skip_analysis} : (!transform.op<\"memref.alloc\">) -> "
        "!transform.any_op\n",
        fresh("multi"), buffers, step.op.getStages());
    k = matchKernel();
    os << llvm::formatv(
        "    transform.apply_patterns to {0} {{\n"
        "{2}"
        "      "
        "transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n"
        "      transform.apply_patterns.canonicalization\n"
        "    } : !transform.any_op\n"
        "    {1} = transform.nvgpu.create_async_groups {0} {{bypass_l1} : "
        "(!transform.any_op) -> !transform.any_op\n",
        k, fresh("grouped"), foldAliasOps());
  }
  // Whatever was not vectorized becomes scalar loops inside the threads: a
  // thread's small box of reduced outputs (several filters and pixels of a
  // convolution) one nest over the reductions that keeps them in registers
  // and reads each shared input once, the rest loops each.
  std::string k = matchKernel();
  os << llvm::formatv(
      "    transform.qimeng.lower_register_blocks {0} : !transform.any_op\n",
      k);
  k = matchKernel();
  std::string rest = fresh("rest");
  // Each output element is reduced by an innermost loop, whose accumulator
  // then stays in a register instead of the output buffer.
  std::string ordered = fresh("ordered");
  os << llvm::formatv(
      "    {0} = transform.structured.match interface{{LinalgOp} in {1} : "
      "(!transform.any_op) -> !transform.any_op\n"
      "    {2} = transform.qimeng.move_reduction_loops_innermost {0} : "
      "(!transform.any_op) -> !transform.any_op\n"
      "    {3} = transform.structured.convert_to_loops {2} : "
      "(!transform.any_op) -> !transform.any_op\n",
      rest, k, ordered, fresh("loops"));
  k = matchKernel();
  // The loops' index maps fold first (an index that is a loop's induction
  // variable becomes that value, in every access).
  os << llvm::formatv(
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n"
      "    transform.qimeng.hoist_loop_accumulators {0} : !transform.any_op\n",
      k);
  // n-D vectors -> 1-D, staged (one pattern set at a time never ping-pongs).
  os << llvm::formatv(
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_contraction "
      "lowering_strategy = \"outerproduct\"\n"
      "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
      "      transform.apply_patterns.vector.lower_multi_reduction "
      "lowering_strategy = \"innerreduction\"\n"
      "      transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_transfer max_transfer_rank "
      "= 1\n"
      "      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank "
      "= 1 full_unroll = true\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_outerproduct\n"
      "      transform.apply_patterns.vector.lower_transpose lowering_strategy "
      "= \"shuffle_1d\"\n"
      "      transform.apply_patterns.vector.lower_broadcast\n"
      "      transform.apply_patterns.vector.lower_shape_cast\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n",
      k);
}

/// The third sequence: pipelines the loops, then turns the shared buffers
/// into globals. It runs on 1-D vector code: upstream's pipeliner misreads
/// transfer_reads of memrefs in the GPU workgroup address space.
void ScriptBuilder::emitPipelining() {
  for (PipelineStep &step : pipelines) {
    std::string loop = matchByAttr("scf.for", kLoopNameAttr, step.loop,
                                   matchKernel(), "!transform.any_op");
    os << llvm::formatv(
        "    {0} = transform.nvgpu.pipeline_shared_memory_copies "
        "failures(propagate) {1} {{depth = {2} : i64, peel_epilogue} : "
        "(!transform.any_op) -> !transform.any_op\n",
        fresh("pipeline"), loop, step.op.getStages());
  }
  if (!pipelines.empty()) {
    // The stage buffers become allocas, then shared globals below.
    std::string launches = fresh("launches");
    os << llvm::formatv(
        "    {0} = transform.structured.match ops{{[\"gpu.launch\"]} in {1} "
        ": (!transform.any_op) -> !transform.any_op\n"
        "    transform.apply_patterns to {0} {{\n"
        "      transform.apply_patterns.memref.alloc_to_alloca "
        "size_limit({2})\n"
        "    } : !transform.any_op\n",
        launches, matchKernel(), kMaxStageBufferBytes);
  }
  if (promoted) {
    std::string k = matchKernel();
    os << llvm::formatv(
        "    %allocas = transform.structured.match ops{{[\"memref.alloca\"]} "
        "in "
        "{0} : (!transform.any_op) -> !transform.op<\"memref.alloca\">\n"
        "    %get_globals, %globals = transform.memref.alloca_to_global "
        "%allocas : (!transform.op<\"memref.alloca\">) -> (!transform.any_op, "
        "!transform.any_op)\n"
        "    %align16 = transform.param.constant 16 : i64 -> "
        "!transform.param<i64>\n"
        "    transform.annotate %globals \"alignment\" = %align16 : "
        "!transform.any_op, !transform.param<i64>\n",
        k);
  }
}
