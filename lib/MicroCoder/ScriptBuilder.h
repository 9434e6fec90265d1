//===- ScriptBuilder.h - Transform scripts for plans (internal) -*- C++ -*-===//
//
// The built-in micro-coder's script writer, shared by the files of
// lib/MicroCoder; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_MICROCODER_SCRIPTBUILDER_H
#define QIMENG_LIB_MICROCODER_SCRIPTBUILDER_H

#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace mlir::qimeng::microcoder {

/// Largest multi-buffered shared-memory tile the pipeline turns into a
/// static shared global (48 KB, the static shared-memory limit).
constexpr int64_t kMaxStageBufferBytes = 48 * 1024;

inline std::string list(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// Returns `text` as an MLIR string literal (quotes and escapes included).
inline std::string quote(StringRef text) {
  std::string s = "\"";
  llvm::raw_string_ostream os(s);
  llvm::printEscapedString(text, os);
  os << "\"";
  return s;
}

/// `n` transform handle types, comma separated.
inline std::string anyOpTypes(size_t n) {
  SmallVector<std::string> types(n, "!transform.any_op");
  return llvm::join(types, ", ");
}

/// GPU id mapping (`kind`: block, thread or warp) for the non-zero entries
/// of `sizes`: the innermost tiled loop goes to x (warps: linear_dim_0, the
/// fastest varying), the next to y, then z. More than three tiled loops of
/// blocks take linear ids (transform.qimeng.map_forall_to_grid numbers
/// them along x).
inline std::string mapping(ArrayRef<int64_t> sizes, StringRef kind) {
  int64_t tiled = llvm::count_if(sizes, [](int64_t s) { return s > 0; });
  static const char *dims[] = {"x", "y", "z"};
  bool linear = kind == "warp" || (kind == "block" && tiled > 3);
  SmallVector<std::string> ids;
  for (int64_t i = tiled - 1; i >= 0; --i)
    ids.push_back(linear
                      ? llvm::formatv("#gpu.{0}<linear_dim_{1}>", kind, i).str()
                      : llvm::formatv("#gpu.{0}<{1}>", kind, dims[i]).str());
  return "[" + llvm::join(ids, ", ") + "]";
}

/// The threads a thread tile maps along each loop (block tile / thread
/// tile; 0 for loops it does not tile), as emitTile maps them and the block
/// is sized. When mapping every tiled loop would exceed a block's dimensions
/// (x and y up to 1024 threads, z up to 64, 1024 in all) the loops of one
/// thread are left out: a 4-D op with threads along its second loop only
/// (an instance norm's 1 x C x 1 x 1 statistics) would map that loop to z.
/// Such a loop is whole in each thread either way; the innermost tiled loop
/// stays when all have one thread. Plans that fit are mapped as they are.
SmallVector<int64_t> getMappedThreadCounts(ArrayRef<int64_t> blockTile,
                                           ArrayRef<int64_t> threadTile);

/// What the micro-coder knows about one tagged target while building a script.
struct TargetState {
  SmallVector<int64_t> blockTile, reductionTile, threadTile, warpTile;
  /// The tensor-core instruction shape, when an mma action names the target.
  SmallVector<int64_t> mmaShape;
  bool promoted = false;
  bool vectorized = false;
  /// A contraction written as a generic (the vectorizer makes a reduction
  /// of products of it, not a vector.contract).
  bool genericContraction = false;
  /// The serial loops that unroll and pipeline actions take over.
  llvm::StringSet<> unrolledLoops, pipelinedLoops;
  /// Handle of the target's block-level scf.forall (shared with the ops
  /// fused into it).
  std::string blockHandle;
  /// The target whose block loop this one was fused into, if any.
  std::string fusedInto;
  /// Threads per block along x, y, z.
  SmallVector<int64_t, 3> blockDims = {1, 1, 1};
  /// Threads sharing each warp tile (the warp tile's `lanes`): 32, or more
  /// for a block per warp tile (the block loop then holds the op itself).
  int64_t lanes = kWarpSize;
  /// Whether the block grid needs transform.qimeng.map_forall_to_grid: a
  /// dynamic number of blocks, or more than the grid's y or z takes.
  bool dynamicGrid = false;
  /// Hopper: an mma action asks for wgmma, which one transform
  /// (rewrite_matmul_as_wgmma) realizes from the tiles, the pipeline's
  /// stages and the fill and elementwise consumer fused into it (their
  /// tags; empty when none).
  bool wgmma = false;
  /// An mma action asks for mma.sync; a fill fused into it without tiles of
  /// its own starts its accumulators (convert_to_mma_sync's `fill`).
  bool mmaSync = false;
  int64_t stages = 2;
  std::string fusedFill, fusedConsumer;
};

/// Builds the transform script of one plan, action by action: the actions
/// are emitted by ScriptActions.cpp, the mapping to the GPU and the lowering
/// sequences by ScriptLowering.cpp.
class ScriptBuilder {
public:
  /// `steps` < 0 applies every action and maps the result to the GPU;
  /// otherwise only the first `steps` actions are applied.
  ScriptBuilder(PlanOp plan, func::FuncOp kernel, int steps)
      : plan(plan), kernel(kernel), steps(steps) {}

  /// Returns the script, or emits an error on the failing action.
  FailureOr<std::string> build();
  /// The unroll actions the script applies.
  SmallVector<UnrollOp> takeUnrolls() { return std::move(unrolls); }

private:
  /// Emits a fresh handle to the kernel function (the payload root; a
  /// match includes the op it starts from). Fresh, because some transforms
  /// consume the handle they are given.
  std::string matchKernel() {
    std::string handle = fresh("kernel");
    os << llvm::formatv(
        "    {0} = transform.structured.match ops{{[\"func.func\"]} "
        "in %root : (!transform.any_op) -> !transform.any_op\n",
        handle);
    return handle;
  }
  /// Emits a match of the `opName` ops in `in` whose attribute `attr` is
  /// the string `value`, typed `type`; returns its handle.
  std::string matchByAttr(StringRef opName, StringRef attr, StringRef value,
                          StringRef in, StringRef type) {
    std::string handle = fresh("named");
    os << llvm::formatv("    {0} = transform.structured.match ops{{[\"{1}\"]} "
                        "attributes {{{2} = {3}} in {4} : (!transform.any_op) "
                        "-> {5}\n",
                        handle, opName, attr, quote(value), in, type);
    return handle;
  }
  /// Emits a match of the payload op tagged `tag`; returns its handle.
  std::string match(StringRef tag) {
    std::string k = matchKernel();
    std::string handle = fresh("op");
    os << llvm::formatv("    {0} = transform.structured.match attributes "
                        "{{qimeng.tag = {1}} in {2} : (!transform.any_op) "
                        "-> !transform.any_op\n",
                        handle, quote(tag), k);
    return handle;
  }
  /// Emits a check that `handle` holds exactly one payload op (the script
  /// fails otherwise).
  void expectOne(StringRef handle);
  /// Emits the entry sequence: the mapping, QiMeng's own steps, the
  /// lowering and the pipelining, then the strided-slice cleanup.
  void emitEntry();
  /// Emits the cleanup after the steps: strided slices lowered.
  void emitCleanup();
  std::string fresh(StringRef prefix) {
    return ("%" + prefix + Twine(counter++)).str();
  }

  /// Emits `tile_using_forall` of `target` (`how` is "tile_sizes [...]" or
  /// "num_threads [...]"); returns the handle of the new forall.
  std::string emitTileUsingForall(StringRef target, StringRef how,
                                  StringRef mapping) {
    std::string forall = fresh("forall");
    os << llvm::formatv(
        "    {0}, {1} = transform.structured.tile_using_forall {2} {3} "
        "(mapping = {4}) : (!transform.any_op) -> ({5})\n",
        fresh("tiled"), forall, target, how, mapping, anyOpTypes(2));
    return forall;
  }

  LogicalResult precompute();
  bool needsOwnGrid(TileOp op);
  LogicalResult emitTile(TileOp op);
  LogicalResult emitPromote(PromoteOp op);
  LogicalResult emitVectorize(VectorizeOp op);
  LogicalResult emitUnroll(UnrollOp op);
  LogicalResult emitPipeline(PipelineOp op);
  LogicalResult emitMma(MmaOp op);
  LogicalResult emitWgmma(MmaOp op, TargetState &state);
  LogicalResult emitFuse(FuseOp op);
  LogicalResult emitWarpFuse(FuseOp op, TargetState &host, TargetState &other,
                             linalg::LinalgOp hostOp, linalg::LinalgOp otherOp,
                             bool isProducer);
  LogicalResult emitFuseSibling(FuseOp op, TargetState &host,
                                TargetState &other, bool isProducer);
  void emitMapping();
  void emitLowering();
  void emitPipelining();
  /// `transform.apply_patterns.memref.fold_memref_alias_ops` as a line of a
  /// pattern set, or nothing when the kernel reads a reshaped buffer
  /// (memref.expand_shape / collapse_shape): MLIR 22's alias folding
  /// rewrites vector transfers of such views forever.
  StringRef foldAliasOps() const;

  PlanOp plan;
  func::FuncOp kernel;
  int steps;
  std::string script;
  llvm::raw_string_ostream os{script};
  unsigned counter = 0;
  bool vectorized = false;
  SmallVector<UnrollOp> unrolls;
  SmallVector<PipelineStep> pipelines;
  SmallVector<MmaOp> mmas;
  struct WarpOp {
    std::string tag, launchTag;
    int64_t lanes;
  };
  SmallVector<WarpOp> warpOps;
  bool promoted = false;
  llvm::StringMap<TargetState> targets;
  SmallVector<std::string> tagOrder;
};

} // namespace mlir::qimeng::microcoder

#endif // QIMENG_LIB_MICROCODER_SCRIPTBUILDER_H
