//===- ExportIREESpec.cpp - Plans as an IREE tuning spec ------------------===//
//
// Writes the plans of a module as a tuning spec for IREE 3.13's CUDA
// backend (docs/iree.md): per kernel whose plan tiles a contraction, a
// matcher of IREE's own match ops (a contraction with the kernel's element
// types and batch/M/N/K sizes) and a `compilation_info` in IREE's
// TileAndFuse form translated from the plan, annotated on the matched root
// op by `@apply_op_config`; `@__kernel_config` dispatches with
// transform.foreach_match. IREE lowers the dispatch itself from there.
//
// The plan → configuration translation:
//   block tile        → workgroup (elements)
//   reduction tile    → reduction (elements; intrinsic counts with an mma)
//   thread tile       → thread, and the workgroup size (SIMT)
//   warp tile + mma   → subgroup (intrinsic counts), mma_kind, workgroup size
//   promote (inputs)  → promote_operands
//   pipeline stages   → gpu_pipeline_options prefetch_num_stages
// Vectorize, unroll and fuse actions are IREE's own decisions there.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Support/WriteFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGEXPORTIREESPECPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// What IREE's TileAndFuse pipeline is told for one kernel.
struct TileAndFuseConfig {
  SmallVector<int64_t> workgroup, reduction, thread, subgroup;
  SmallVector<int64_t> promoteOperands;
  /// `#iree_gpu.mma_layout<...>` intrinsic name; empty for SIMT.
  std::string mmaKind;
  int64_t workgroupSize = 0;
  int64_t stages = 1;
  /// How the plan was translated where IREE has no direct equivalent.
  SmallVector<std::string> notes;
};

/// One kernel of the spec: how its root is matched and configured.
struct SpecKernel {
  std::string kernel;
  std::string lhsType, rhsType, outType;
  SmallVector<int64_t> batch, m, n, k;
  TileAndFuseConfig config;
};

std::string list(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

/// `@name`, quoted when `name` is not a bare identifier.
std::string symbol(StringRef name) {
  bool bare = !name.empty() && !llvm::isDigit(name.front()) &&
              llvm::all_of(name, [](char c) {
                return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
              });
  if (bare)
    return ("@" + name).str();
  std::string s = "@\"";
  llvm::raw_string_ostream os(s);
  llvm::printEscapedString(name, os);
  return s + "\"";
}

/// The `#iree_gpu.mma_layout` intrinsic for a tensor-core action, with its
/// shape; failure (with `why`) when IREE 3.13's CUDA target has none.
FailureOr<std::pair<std::string, std::array<int64_t, 3>>>
ireeIntrinsic(MmaOp mma, std::string &why) {
  MmaType a = mma.getAType(), b = mma.getBType(), acc = mma.getAccType();
  if (a != b || (a != MmaType::f16 && a != MmaType::bf16)) {
    why = "tensor-core inputs " + stringifyMmaType(a).str() + "/" +
          stringifyMmaType(b).str() +
          " have no intrinsic in IREE 3.13's CUDA target";
    return failure();
  }
  std::string in = a == MmaType::f16 ? "F16" : "BF16";
  std::string out = acc == MmaType::f32 ? "F32" : "F16";
  if (acc == MmaType::f16 && a == MmaType::bf16) {
    why = "bf16 tensor cores with an f16 accumulator do not exist";
    return failure();
  }
  if (mma.getKind() == MmaKind::wmma) {
    if (a == MmaType::bf16) {
      why = "IREE 3.13's CUDA target has no bf16 wmma intrinsic";
      return failure();
    }
    return std::make_pair("NV_WMMA_" + out + "_16x16x16_" + in,
                          std::array<int64_t, 3>{16, 16, 16});
  }
  // mma_sync, and wgmma, which IREE 3.13 (no sm_90 CUDA target) does not
  // have: the same block tile on mma.sync (a note says so).
  return std::make_pair("NV_MMA_SYNC_" + out + "_16x8x16_" + in,
                        std::array<int64_t, 3>{16, 8, 16});
}

/// Translates the plan's actions on `root` into a TileAndFuse configuration;
/// failure with `why` where the plan has no TileAndFuse equivalent.
FailureOr<TileAndFuseConfig>
translatePlan(PlanOp plan, linalg::LinalgOp root, StringRef tag,
              const linalg::ContractionDimensions &dims, std::string &why) {
  unsigned numLoops = root.getNumLoops();
  SmallVector<int64_t> sizes = root.getStaticLoopRanges();
  SmallVector<int64_t> block, warp, thread, reduction;
  TileAndFuseConfig config;
  MmaOp mma;
  for (MacroActionOpInterface action : plan.getActions()) {
    if (action.getTargetTag() != tag)
      continue;
    if (auto tile = dyn_cast<TileOp>(action.getOperation())) {
      SmallVector<int64_t> tileSizes(tile.getSizes());
      tileSizes.resize(numLoops, 0);
      if (tile.getInterchange()) {
        why = "the plan interchanges tile loops, which TileAndFuse does not";
        return failure();
      }
      switch (tile.getLevel()) {
      case TileLevel::block:
        block = tileSizes;
        break;
      case TileLevel::warp:
        warp = tileSizes;
        break;
      case TileLevel::thread:
        thread = tileSizes;
        break;
      case TileLevel::reduction:
        reduction = tileSizes;
        break;
      }
    } else if (auto promote = dyn_cast<PromoteOp>(action.getOperation())) {
      for (int64_t operand : promote.getOperands())
        if (operand < root.getNumDpsInputs())
          config.promoteOperands.push_back(operand);
    } else if (auto pipeline = dyn_cast<PipelineOp>(action.getOperation())) {
      config.stages = pipeline.getStages();
    } else if (auto mmaAction = dyn_cast<MmaOp>(action.getOperation())) {
      mma = mmaAction;
    }
  }
  if (block.empty()) {
    why = "the plan has no block tile";
    return failure();
  }
  llvm::sort(config.promoteOperands);
  config.promoteOperands.erase(llvm::unique(config.promoteOperands),
                               config.promoteOperands.end());

  auto isReduction = [&](unsigned d) { return llvm::is_contained(dims.k, d); };
  config.workgroup.assign(numLoops, 0);
  config.reduction.assign(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d) {
    if (isReduction(d))
      config.reduction[d] = reduction.empty() ? 0 : reduction[d];
    else
      config.workgroup[d] = block[d];
  }
  // The extent a block covers along a parallel loop (0 = the whole loop).
  auto blockExtent = [&](unsigned d) { return block[d] ? block[d] : sizes[d]; };

  if (!mma) {
    if (thread.empty()) {
      why = "the plan maps no thread tile (a warp-level SIMT plan), which "
            "TileAndFuse's SIMT configuration cannot express";
      return failure();
    }
    config.thread.assign(numLoops, 0);
    int64_t threads = 1;
    for (unsigned d = 0; d < numLoops; ++d) {
      if (isReduction(d) || thread[d] == 0)
        continue;
      config.thread[d] = thread[d];
      threads *= llvm::divideCeil(blockExtent(d), thread[d]);
    }
    config.workgroupSize = threads;
  } else {
    FailureOr<std::pair<std::string, std::array<int64_t, 3>>> intrinsic =
        ireeIntrinsic(mma, why);
    if (failed(intrinsic))
      return failure();
    auto [kind, shape] = *intrinsic;
    config.mmaKind = kind;
    if (warp.empty()) {
      why = "the tensor-core plan has no warp tile";
      return failure();
    }
    if (dims.m.empty() || dims.n.empty() || dims.k.empty()) {
      why = "the contraction lacks an M, N or K loop";
      return failure();
    }
    unsigned mInner = dims.m.back(), nInner = dims.n.back(),
             kInner = dims.k.back();
    SmallVector<int64_t> warpTile = warp;
    if (mma.getKind() == MmaKind::wgmma) {
      // A warpgroup tile is four warps' work: two by two warps of mma.sync.
      warpTile[mInner] = std::max<int64_t>(warpTile[mInner] / 2, shape[0]);
      warpTile[nInner] = std::max<int64_t>(warpTile[nInner] / 2, shape[1]);
      // wgmma reads both operands from shared memory (TMA copies).
      config.promoteOperands = {0, 1};
      config.notes.push_back(
          llvm::formatv("wgmma {0} has no IREE 3.13 CUDA intrinsic: the same "
                        "block tile, stages and shared operands on {1}, "
                        "2x2 warps per warpgroup tile",
                        list(mma.getShape()), kind));
    }
    config.subgroup.assign(numLoops, 0);
    int64_t warps = 1;
    for (unsigned d = 0; d < numLoops; ++d) {
      if (isReduction(d) || llvm::is_contained(dims.batch, d))
        continue;
      int64_t unit = d == mInner ? shape[0] : d == nInner ? shape[1] : 1;
      int64_t extent = blockExtent(d);
      if (warpTile[d] == 0 || warpTile[d] % unit || extent % warpTile[d]) {
        why = llvm::formatv("the warp tile {0} does not divide the block tile "
                            "{1} into {2}x{3} intrinsics",
                            list(warpTile), list(block), shape[0], shape[1]);
        return failure();
      }
      config.subgroup[d] = warpTile[d] / unit;
      warps *= extent / warpTile[d];
    }
    if (config.reduction[kInner] % shape[2]) {
      why = llvm::formatv("the reduction tile {0} is not a multiple of the "
                          "intrinsic's K ({1})",
                          config.reduction[kInner], shape[2]);
      return failure();
    }
    config.reduction[kInner] /= shape[2];
    config.workgroupSize = warps * 32;
  }
  if (config.workgroupSize < 1 || config.workgroupSize > 1024) {
    why = llvm::formatv("{0} threads per workgroup", config.workgroupSize);
    return failure();
  }
  return config;
}

/// The `#iree_codegen.compilation_info` of a kernel, tagged with the kernel's
/// name (`qimeng_kernel`, which IREE keeps in the lowering config: how
/// `python -m qimeng.iree` tells which kernels the spec configured).
std::string compilationInfo(const SpecKernel &k) {
  const TileAndFuseConfig &c = k.config;
  SmallVector<std::string> fields;
  if (!c.mmaKind.empty()) {
    // IREE's own default for mma.sync: accumulating GEMMs are converted.
    if (StringRef(c.mmaKind).starts_with("NV_MMA_SYNC"))
      fields.push_back("convert_acc_gemm");
    fields.push_back("mma_kind = #iree_gpu.mma_layout<" + c.mmaKind + ">");
  }
  if (!c.promoteOperands.empty())
    fields.push_back("promote_operands = " + list(c.promoteOperands));
  std::string kernelName = "\"";
  {
    llvm::raw_string_ostream os(kernelName);
    llvm::printEscapedString(k.kernel, os);
  }
  fields.push_back("qimeng_kernel = " + kernelName + "\"");
  fields.push_back("reduction = " + list(c.reduction));
  if (!c.subgroup.empty())
    fields.push_back("subgroup = " + list(c.subgroup));
  if (!c.thread.empty())
    fields.push_back("thread = " + list(c.thread));
  fields.push_back("workgroup = " + list(c.workgroup));
  std::string pipelineOptions;
  if (c.stages > 1)
    pipelineOptions = llvm::formatv(", {{gpu_pipeline_options = "
                                    "#iree_gpu.pipeline_options<"
                                    "prefetch_num_stages = {0}>}",
                                    c.stages);
  return llvm::formatv(
      "#iree_codegen.compilation_info<\n"
      "      lowering_config = #iree_gpu.lowering_config<{{{0}}>,\n"
      "      translation_info = #iree_codegen.translation_info<pipeline = "
      "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [{1}, 1, 1] "
      "subgroup_size = 32{2}>>",
      llvm::join(fields, ", "), c.workgroupSize, pipelineOptions);
}

std::string emitSpec(ArrayRef<SpecKernel> kernels,
                     ArrayRef<std::pair<std::string, std::string>> skipped) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// QiMeng's plans as an IREE 3.13 tuning spec (qimeng-opt "
        "--qimeng-export-iree-spec).\n"
        "// Compile with it (iree-compile 3.13 does not pass "
        "--iree-codegen-tuning-spec-path\n"
        "// to its CUDA pipeline; docs/iree.md):\n"
        "//   python -m qimeng.iree compile in.mlir --spec THIS_FILE -o "
        "out.vmfb\n";
  for (const auto &[kernel, why] : skipped)
    os << "// @" << kernel << ": not expressed (" << why
       << "); IREE keeps its own configuration\n";
  os << "module attributes {iree_codegen.tuning_spec_with_default_entrypoint, "
        "transform.with_named_sequence} {\n"
        "  transform.named_sequence @apply_op_config(%op: !transform.any_op "
        "{transform.readonly}, %config: !transform.any_param "
        "{transform.readonly}) {\n"
        "    transform.annotate %op \"compilation_info\" = %config : "
        "!transform.any_op, !transform.any_param\n"
        "    transform.yield\n"
        "  }\n";
  SmallVector<std::string> matchers;
  for (const SpecKernel &k : kernels) {
    std::string matcher = symbol("match_" + k.kernel);
    matchers.push_back(matcher);
    for (const std::string &note : k.config.notes)
      os << "  // @" << k.kernel << ": " << note << "\n";
    os << "  transform.named_sequence " << matcher
       << "(%op: !transform.any_op {transform.readonly}) -> "
          "(!transform.any_op, !transform.any_param) {\n"
          "    transform.iree.match.has_no_lowering_config %op : "
          "!transform.any_op\n";
    os << llvm::formatv("    %batch, %m, %n, %k = "
                        "transform.iree.match.contraction %op, lhs_type = {0}, "
                        "rhs_type = {1}, output_type = {2} : !transform.any_op "
                        "-> !transform.param<i64>\n",
                        k.lhsType, k.rhsType, k.outType);
    for (auto [name, values] :
         {std::make_pair("batch", &k.batch), std::make_pair("m", &k.m),
          std::make_pair("n", &k.n), std::make_pair("k", &k.k)})
      os << llvm::formatv("    transform.iree.match.dims_equal %{0}, {1} : "
                          "!transform.param<i64>\n",
                          name, list(*values));
    os << "    %config = transform.param.constant " << compilationInfo(k)
       << " -> !transform.any_param\n"
          "    transform.yield %op, %config : !transform.any_op, "
          "!transform.any_param\n"
          "  }\n";
  }
  if (matchers.empty()) {
    // IREE wants one foreach_match in the entry point: a matcher of nothing.
    os << "  transform.named_sequence @match_nothing(%op: !transform.any_op "
          "{transform.readonly}) -> (!transform.any_op, !transform.any_param) "
          "{\n"
          "    transform.match.operation_name %op [\"qimeng.none\"] : "
          "!transform.any_op\n"
          "    %config = transform.param.constant 0 : i64 -> "
          "!transform.any_param\n"
          "    transform.yield %op, %config : !transform.any_op, "
          "!transform.any_param\n"
          "  }\n";
    matchers.push_back("@match_nothing");
  }
  os << "  transform.named_sequence @__kernel_config(%variant: "
        "!transform.any_op {transform.consumed}) -> !transform.any_op "
        "attributes {iree_codegen.tuning_spec_entrypoint} {\n"
        "    %result = transform.foreach_match in %variant\n";
  for (auto [i, matcher] : llvm::enumerate(matchers))
    os << "        " << (i ? ", " : "") << matcher << " -> @apply_op_config\n";
  os << "      : (!transform.any_op) -> !transform.any_op\n"
        "    transform.yield %result : !transform.any_op\n  }\n}\n";
  return out;
}

/// The contraction a plan configures: the first op its actions name that
/// IREE's contraction matcher would match, with its dimensions.
std::optional<std::pair<linalg::LinalgOp, linalg::ContractionDimensions>>
findContractionRoot(PlanOp plan, Operation *kernel, std::string &tag) {
  for (MacroActionOpInterface action : plan.getActions()) {
    auto op = dyn_cast_or_null<linalg::LinalgOp>(
        lookupTaggedOp(kernel, action.getTargetTag()));
    if (!op || !linalg::isaContractionOpInterface(op))
      continue;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
      continue;
    tag = action.getTargetTag().str();
    return std::make_pair(op, *dims);
  }
  return std::nullopt;
}

/// Whether `op` computes the partial products of a split K loop
/// (qimeng-split-reductions): a consumer reduces its result over one of
/// its batch loops.
bool isSplitK(linalg::LinalgOp op, const linalg::ContractionDimensions &dims) {
  AffineMap resultMap =
      op.getIndexingMapMatchingResult(cast<OpResult>(op->getResult(0)));
  for (OpOperand &use : op->getResult(0).getUses()) {
    auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!consumer || !consumer.isDpsInput(&use))
      continue;
    AffineMap readMap = consumer.getMatchingIndexingMap(&use);
    SmallVector<utils::IteratorType> iterators =
        consumer.getIteratorTypesArray();
    for (auto [position, expr] : llvm::enumerate(readMap.getResults())) {
      auto read = dyn_cast<AffineDimExpr>(expr);
      auto produced = dyn_cast<AffineDimExpr>(resultMap.getResult(position));
      if (read && produced &&
          iterators[read.getPosition()] == utils::IteratorType::reduction &&
          llvm::is_contained(dims.batch, produced.getPosition()))
        return true;
    }
  }
  return false;
}

class QiMengExportIREESpecPass
    : public impl::QiMengExportIREESpecPassBase<QiMengExportIREESpecPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<SpecKernel> kernels;
    SmallVector<std::pair<std::string, std::string>> skipped;
    for (PlanOp plan : module.getOps<PlanOp>()) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      if (!kernel) {
        plan.emitOpError() << "names no function of the module";
        return signalPassFailure();
      }
      std::string why;
      FailureOr<SpecKernel> entry = exportKernel(plan, kernel, why);
      if (failed(entry)) {
        plan.emitWarning() << "@" << plan.getKernel()
                           << " is not in the IREE tuning spec: " << why;
        skipped.emplace_back(plan.getKernel().str(), why);
        continue;
      }
      kernels.push_back(std::move(*entry));
    }
    std::string spec = emitSpec(kernels, skipped);
    if (failed(writeTextFile(module, output, spec)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

private:
  FailureOr<SpecKernel> exportKernel(PlanOp plan, func::FuncOp kernel,
                                     std::string &why) {
    std::string tag;
    auto root = findContractionRoot(plan, kernel, tag);
    if (!root) {
      why = "no contraction is planned; IREE configures reductions, "
            "elementwise ops and convolutions with other pipelines";
      return failure();
    }
    auto [op, dims] = *root;
    if (isSplitK(op, dims)) {
      why = "its K loop is split over a reduction of partial products "
            "(qimeng-split-reductions), which IREE's dispatch of the input "
            "does not have";
      return failure();
    }
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    if (llvm::any_of(sizes, ShapedType::isDynamic)) {
      why = "its loop sizes are dynamic";
      return failure();
    }
    SpecKernel k;
    k.kernel = kernel.getSymName().str();
    k.lhsType =
        debugString(getElementTypeOrSelf(op.getDpsInputs()[0].getType()));
    k.rhsType =
        debugString(getElementTypeOrSelf(op.getDpsInputs()[1].getType()));
    k.outType =
        debugString(getElementTypeOrSelf(op.getDpsInits()[0].getType()));
    for (auto [from, to] :
         {std::make_pair(&dims.batch, &k.batch), std::make_pair(&dims.m, &k.m),
          std::make_pair(&dims.n, &k.n), std::make_pair(&dims.k, &k.k)})
      for (unsigned d : *from)
        to->push_back(sizes[d]);
    FailureOr<TileAndFuseConfig> config =
        translatePlan(plan, op, tag, dims, why);
    if (failed(config))
      return failure();
    k.config = std::move(*config);
    return k;
  }
};

} // namespace
} // namespace mlir::qimeng
