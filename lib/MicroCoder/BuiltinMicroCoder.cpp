//===- BuiltinMicroCoder.cpp - Actions to transform scripts ---------------===//
//
// Each macro action becomes a few transform-dialect operations (one step of
// a transform script); a final step maps the tiled loops to gpu.launch and
// lowers vectors to what the NVVM backend takes. Payload ops are found again
// by their qimeng.tag, serial loops by a qimeng.loop name.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

std::string list(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// Returns `text` as an MLIR string literal (quotes and escapes included).
std::string quote(StringRef text) {
  std::string s = "\"";
  llvm::raw_string_ostream os(s);
  llvm::printEscapedString(text, os);
  os << "\"";
  return s;
}

/// `n` transform handle types, comma separated.
std::string anyOpTypes(size_t n) {
  SmallVector<std::string> types(n, "!transform.any_op");
  return llvm::join(types, ", ");
}

/// GPU id mapping for the non-zero entries of `sizes`: the innermost tiled
/// loop goes to x, the next to y, then z.
std::string mapping(ArrayRef<int64_t> sizes, StringRef kind) {
  int64_t tiled = llvm::count_if(sizes, [](int64_t s) { return s > 0; });
  static const char *dims[] = {"x", "y", "z"};
  SmallVector<std::string> ids;
  for (int64_t i = tiled - 1; i >= 0; --i)
    ids.push_back(llvm::formatv("#gpu.{0}<{1}>", kind, dims[i]));
  return "[" + llvm::join(ids, ", ") + "]";
}

/// What the micro-coder knows about one tagged target while building a script.
struct TargetState {
  SmallVector<int64_t> blockTile, reductionTile, threadTile;
  bool promoted = false;
  /// Threads per block along x, y, z.
  SmallVector<int64_t, 3> blockDims = {1, 1, 1};
};

/// Builds the transform script of one plan, action by action.
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
    os << llvm::formatv("    {0} = transform.structured.match ops{{[\"func.func\"]} "
                        "in %root : (!transform.any_op) -> !transform.any_op\n",
                        handle);
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
  unsigned tagIndex(StringRef tag) {
    return std::find(tagOrder.begin(), tagOrder.end(), tag.str()) -
           tagOrder.begin();
  }
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
  LogicalResult emitTile(TileOp op);
  LogicalResult emitPromote(PromoteOp op);
  LogicalResult emitVectorize(VectorizeOp op);
  LogicalResult emitUnroll(UnrollOp op);
  void emitFinalize();

  PlanOp plan;
  func::FuncOp kernel;
  int steps;
  std::string script;
  llvm::raw_string_ostream os{script};
  unsigned counter = 0;
  bool vectorized = false;
  SmallVector<UnrollOp> unrolls;
  bool promoted = false;
  llvm::StringMap<TargetState> targets;
  SmallVector<std::string> tagOrder;
};

/// Looks ahead over the plan for each target's tiles: the copies of a
/// promotion are spread over the threads that the later thread tile creates.
LogicalResult ScriptBuilder::precompute() {
  for (MacroActionOpInterface action : plan.getActions()) {
    // Every target of any action needs its tiles (checked below).
    TargetState &state = targets[action.getTargetTag()];
    if (!llvm::is_contained(tagOrder, action.getTargetTag().str()))
      tagOrder.push_back(action.getTargetTag().str());
    auto tile = dyn_cast<TileOp>(action.getOperation());
    if (!tile) {
      if (state.blockTile.empty())
        return action->emitOpError()
               << "comes before the block tile of '" << action.getTargetTag()
               << "'; the block tile must come first";
      continue;
    }
    ArrayRef<int64_t> sizes = tile.getSizes();
    SmallVector<int64_t> *slot = nullptr;
    switch (tile.getLevel()) {
    case TileLevel::block:
      slot = &state.blockTile;
      break;
    case TileLevel::reduction:
      slot = &state.reductionTile;
      break;
    case TileLevel::thread:
      slot = &state.threadTile;
      break;
    case TileLevel::warp:
      return tile.emitOpError()
             << "warp-level tiles are not supported by the built-in "
                "micro-coder yet";
    }
    if (!slot->empty())
      return tile.emitOpError()
             << "tiles '" << tile.getTarget() << "' to "
             << stringifyTileLevel(tile.getLevel())
             << " a second time; the built-in micro-coder takes one tile "
                "per level";
    if (tile.getLevel() != TileLevel::reduction &&
        llvm::count_if(sizes, [](int64_t s) { return s > 0; }) > 3)
      return tile.emitOpError() << "maps more than 3 loops to GPU "
                                << stringifyTileLevel(tile.getLevel())
                                << "s; the built-in micro-coder maps at most 3";
    if (tile.getLevel() != TileLevel::block && state.blockTile.empty())
      return tile.emitOpError() << "comes before the block tile of '"
                                << tile.getTarget()
                                << "'; the block tile must come first";
    slot->assign(sizes.begin(), sizes.end());
  }
  for (auto &[tag, state] : targets) {
    // Every action checked above that the block tile came first.
    if (state.threadTile.empty())
      return plan.emitOpError() << "target '" << tag
                                << "' has no thread tile; every operation of "
                                   "a kernel must be mapped to GPU threads";
    // Threads along each mapped dimension: block tile / thread tile.
    SmallVector<int64_t> perDim;
    for (auto [b, t] : llvm::zip(state.blockTile, state.threadTile)) {
      if (b == 0 && t == 0)
        continue;
      if (b == 0 || t == 0 || b % t != 0)
        return plan.emitOpError()
               << "thread tile " << list(state.threadTile) << " of '" << tag
               << "' does not divide its block tile " << list(state.blockTile);
      perDim.push_back(b / t);
    }
    if (perDim.size() > 3)
      return plan.emitOpError() << "target '" << tag << "' maps "
                                << perDim.size()
                                << " loops to threads, at most 3 can be";
    std::reverse(perDim.begin(), perDim.end());
    int64_t total = 1;
    for (auto [i, n] : llvm::enumerate(perDim)) {
      state.blockDims[i] = n;
      // Saturate: each factor and the product stay far from overflow.
      total = std::min<int64_t>(total * std::min<int64_t>(n, 1 << 20), 1 << 30);
    }
    if (total > 1024)
      return plan.emitOpError() << "target '" << tag << "' needs " << total
                                << " threads per block, at most 1024";
  }
  return success();
}

LogicalResult ScriptBuilder::emitTile(TileOp op) {
  TargetState &state = targets[op.getTarget()];
  std::string target = match(op.getTarget());
  std::string interchange;
  if (std::optional<ArrayRef<int64_t>> perm = op.getInterchange())
    interchange = " interchange = " + list(*perm);
  switch (op.getLevel()) {
  case TileLevel::reduction: {
    // One serial loop per tiled dimension; each is named (getLoopName) so a
    // later action (unroll) can find it.
    SmallVector<std::string> loops;
    SmallVector<int64_t> dims;
    for (auto [dim, size] : llvm::enumerate(op.getSizes()))
      if (size > 0) {
        loops.push_back(fresh("loop"));
        dims.push_back(dim);
      }
    os << llvm::formatv(
        "    {0}, {1} = transform.structured.tile_using_for {2} tile_sizes "
        "{3}{4} : (!transform.any_op) -> ({5})\n",
        fresh("tiled"), llvm::join(loops, ", "), target, list(op.getSizes()),
        interchange, anyOpTypes(loops.size() + 1));
    for (auto [handle, dim] : llvm::zip(loops, dims)) {
      std::string name = fresh("name");
      os << llvm::formatv(
          "    {0} = transform.param.constant {1} -> "
          "!transform.any_param\n"
          "    transform.annotate {2} \"{3}\" = {0} : "
          "!transform.any_op, !transform.any_param\n",
          name, quote(getLoopName(op.getTarget(), dim)), handle,
          kLoopNameAttr);
    }
    return success();
  }
  case TileLevel::block: {
    std::string forall =
        emitTileUsingForall(target, "tile_sizes " + list(op.getSizes()) + interchange,
                            mapping(op.getSizes(), "block"));
    os << llvm::formatv("    %blk_{0} = transform.cast {1} : "
                        "!transform.any_op to !transform.any_op\n",
                        tagIndex(op.getTarget()), forall);
    return success();
  }
  case TileLevel::thread: {
    // Threads are tiled by their count (block tile / thread tile), so the
    // thread loop stays static when a block tile is partial at the border.
    SmallVector<int64_t> counts;
    for (auto [b, t] : llvm::zip(state.blockTile, op.getSizes()))
      counts.push_back(t == 0 ? 0 : b / t);
    emitTileUsingForall(target, "num_threads " + list(counts) + interchange,
                        mapping(op.getSizes(), "thread"));
    return success();
  }
  case TileLevel::warp:
    break;
  }
  llvm_unreachable("warp tiles are rejected before any script is written");
}

/// Returns the static shape of the tile of operand `index` of `op` after the
/// block and reduction tiles of `state`.
static FailureOr<SmallVector<int64_t>>
getOperandTileShape(linalg::LinalgOp op, int64_t index,
                    const TargetState &state) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  for (auto [i, extent] : llvm::enumerate(extents)) {
    if (i < state.blockTile.size() && state.blockTile[i] > 0)
      extent = state.blockTile[i];
    if (i < state.reductionTile.size() && state.reductionTile[i] > 0)
      extent = state.reductionTile[i];
  }
  AffineMap map = op.getMatchingIndexingMap(&op->getOpOperand(index));
  if (!map.isProjectedPermutation())
    return failure();
  SmallVector<int64_t> shape;
  for (AffineExpr e : map.getResults())
    shape.push_back(extents[cast<AffineDimExpr>(e).getPosition()]);
  return shape;
}

static int64_t largestPow2Divisor(int64_t size, int64_t cap) {
  int64_t d = 1;
  while (d * 2 <= cap && size % (d * 2) == 0)
    d *= 2;
  return d;
}

LogicalResult ScriptBuilder::emitPromote(PromoteOp op) {
  if (op.getPad() != 0)
    return op.emitOpError() << "padding shared-memory buffers is not "
                               "supported by the built-in micro-coder yet";
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(
      lookupTaggedOp(kernel, op.getTarget()));
  if (!linalgOp)
    return op.emitOpError() << "found no linalg operation tagged '"
                            << op.getTarget() << "'";
  TargetState &state = targets[op.getTarget()];
  int64_t threads =
      state.blockDims[0] * state.blockDims[1] * state.blockDims[2];

  std::string target = match(op.getTarget());
  std::string promotedOp = fresh("promoted");
  os << llvm::formatv(
      "    {0} = transform.structured.promote {1} {{operands_to_promote = {2}, "
      "use_alloca, alignment = 16, memory_space = "
      "#gpu.address_space<workgroup>} : (!transform.any_op) -> "
      "!transform.any_op\n",
      promotedOp, target, list(op.getOperands()));
  promoted = true;
  state.promoted = true;

  // Spread each global->shared copy over the block's threads, one 128-bit
  // vector (or one element) per thread and step.
  std::string copies = fresh("copies");
  os << llvm::formatv("    {0} = transform.structured.match ops{{[\"linalg.copy\"]} "
                      "in %blk_{1} : (!transform.any_op) -> !transform.any_op\n",
                      copies, tagIndex(op.getTarget()));
  SmallVector<std::string> copyHandles;
  for (size_t i = 0; i < op.getOperands().size(); ++i)
    copyHandles.push_back(fresh("copy"));
  if (copyHandles.size() == 1)
    os << llvm::formatv("    {0} = transform.cast {1} : !transform.any_op to "
                        "!transform.any_op\n",
                        copyHandles[0], copies);
  else
    os << llvm::formatv("    {0} = transform.split_handle {1} : "
                        "(!transform.any_op) -> ({2})\n",
                        llvm::join(copyHandles, ", "), copies,
                        anyOpTypes(copyHandles.size()));
  for (auto [handle, index] : llvm::zip(copyHandles, op.getOperands())) {
    FailureOr<SmallVector<int64_t>> shape =
        getOperandTileShape(linalgOp, index, state);
    if (failed(shape) || shape->empty())
      return op.emitOpError() << "cannot promote operand " << index
                              << ": its tile is not a static box";
    int64_t cols = shape->back();
    int64_t rows = shape->size() > 1 ? (*shape)[shape->size() - 2] : 1;
    // One 128-bit vector per thread and step (4 x f32, 8 x f16) when the
    // row allows it, else one element.
    Type element =
        getElementTypeOrSelf(linalgOp->getOperand(index).getType());
    int64_t lanes = element.isIntOrFloat() && element.getIntOrFloatBitWidth() <= 32
                        ? 128 / std::max<int64_t>(8, element.getIntOrFloatBitWidth())
                        : 1;
    int64_t perThread = 1;
    for (int64_t candidate : {lanes, int64_t(4)})
      if (perThread == 1 && candidate > 1 && cols % candidate == 0)
        perThread = candidate;
    int64_t colThreads = largestPow2Divisor(cols / perThread, threads);
    int64_t rowThreads = largestPow2Divisor(rows, threads / colThreads);
    SmallVector<int64_t> numThreads(shape->size(), 0);
    numThreads.back() = colThreads;
    std::string copyMapping = "[#gpu.thread<linear_dim_0>]";
    if (shape->size() > 1) {
      numThreads[shape->size() - 2] = rowThreads;
      copyMapping =
          "[#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]";
    }
    emitTileUsingForall(handle, "num_threads " + list(numThreads),
                        copyMapping);
  }
  return success();
}

/// Vectorizes the target (contractions become vector.contract) and, if it
/// was promoted, its shared-memory copies.
LogicalResult ScriptBuilder::emitVectorize(VectorizeOp op) {
  std::string target = match(op.getTarget());
  os << llvm::formatv("    transform.structured.vectorize {0} "
                      "{{create_named_contraction} : !transform.any_op\n",
                      target);
  if (targets[op.getTarget()].promoted) {
    std::string copies = fresh("copies");
    os << llvm::formatv(
        "    {0} = transform.structured.match ops{{[\"linalg.copy\"]} in "
        "%blk_{1} : (!transform.any_op) -> !transform.any_op\n"
        "    transform.structured.vectorize {0} : !transform.any_op\n",
        copies, tagIndex(op.getTarget()));
  }
  vectorized = true;
  return success();
}

/// Unrolls the serial loop that a reduction tile made for loop `dim`.
LogicalResult ScriptBuilder::emitUnroll(UnrollOp op) {
  const TargetState &state = targets[op.getTarget()];
  int64_t dim = op.getDim();
  if (dim >= static_cast<int64_t>(state.reductionTile.size()) ||
      state.reductionTile[dim] == 0)
    return op.emitOpError()
           << "unrolls loop " << dim << " of '" << op.getTarget()
           << "', but no reduction tile of the plan makes a serial loop for it";
  // Unrolled at the end, after the accumulators were hoisted into registers
  // (two copies of a read/write pair in one iteration would block that).
  unrolls.push_back(op);
  return success();
}

void ScriptBuilder::emitFinalize() {
  if (promoted) {
    std::string k = matchKernel();
    os << llvm::formatv(
        "    %allocas = transform.structured.match ops{{[\"memref.alloca\"]} in "
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
  // Map each target's loops to a gpu.launch of its own.
  for (auto [i, tag] : llvm::enumerate(tagOrder)) {
    const TargetState &state = targets[tag];
    os << llvm::formatv(
        "    %launch_{0} = transform.gpu.map_forall_to_blocks %blk_{0} "
        "generate_gpu_launch : (!transform.any_op) -> !transform.any_op\n"
        "    transform.gpu.map_nested_forall_to_threads %launch_{0} block_dims "
        "= {1} : (!transform.any_op) -> !transform.any_op\n",
        i, list(state.blockDims));
  }
  std::string k = matchKernel();
  if (vectorized) {
    os << llvm::formatv(
        "    transform.apply_patterns to {0} {{\n"
        "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
        "      transform.apply_patterns.memref.fold_memref_alias_ops\n"
        "      transform.apply_patterns.canonicalization\n"
        "    } : !transform.any_op\n"
        "    transform.apply_cse to {0} : !transform.any_op\n"
        "    {1} = transform.structured.hoist_redundant_vector_transfers {0} : "
        "(!transform.any_op) -> !transform.any_op\n",
        k, fresh("hoisted"));
    k = matchKernel();
  }
  for (UnrollOp op : unrolls) {
    std::string loop = fresh("unroll");
    os << llvm::formatv(
        "    {0} = transform.structured.match ops{{[\"scf.for\"]} attributes "
        "{{{1} = {2}} in {3} : (!transform.any_op) -> "
        "!transform.op<\"scf.for\">\n"
        "    transform.loop.unroll {0} {{factor = {4} : i64} : "
        "!transform.op<\"scf.for\">\n",
        loop, kLoopNameAttr, quote(getLoopName(op.getTarget(), op.getDim())),
        k, op.getFactor());
  }
  // Whatever was not vectorized becomes scalar loops inside the threads.
  std::string rest = fresh("rest");
  os << llvm::formatv(
      "    {0} = transform.structured.match interface{{LinalgOp} in {1} : "
      "(!transform.any_op) -> !transform.any_op\n"
      "    {2} = transform.structured.convert_to_loops {0} : "
      "(!transform.any_op) -> !transform.any_op\n",
      rest, k, fresh("loops"));
  k = matchKernel();
  // n-D vectors -> 1-D, staged (one pattern set at a time never ping-pongs).
  os << llvm::formatv(
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_contraction lowering_strategy = \"outerproduct\"\n"
      "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
      "      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = \"innerreduction\"\n"
      "      transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1\n"
      "      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.vector.lower_outerproduct\n"
      "      transform.apply_patterns.vector.lower_transpose lowering_strategy = \"shuffle_1d\"\n"
      "      transform.apply_patterns.vector.lower_broadcast\n"
      "      transform.apply_patterns.vector.lower_shape_cast\n"
      "    } : !transform.any_op\n"
      "    transform.apply_patterns to {0} {{\n"
      "      transform.apply_patterns.canonicalization\n"
      "    } : !transform.any_op\n",
      k);
}

FailureOr<std::string> ScriptBuilder::build() {
  if (failed(precompute()))
    return failure();
  int applied = 0;
  for (MacroActionOpInterface action : plan.getActions()) {
    if (steps >= 0 && applied++ >= steps)
      break;
    Operation *op = action.getOperation();
    std::string comment = action.describe();
    llvm::replace(comment, '\n', ' ');
    os << "    // " << comment << "\n";
    LogicalResult result = success();
    if (auto tile = dyn_cast<TileOp>(op))
      result = emitTile(tile);
    else if (auto promote = dyn_cast<PromoteOp>(op))
      result = emitPromote(promote);
    else if (auto vec = dyn_cast<VectorizeOp>(op))
      result = emitVectorize(vec);
    else if (auto unroll = dyn_cast<UnrollOp>(op))
      result = emitUnroll(unroll);
    else
      result = op->emitOpError()
               << "is not supported by the built-in micro-coder yet";
    if (failed(result))
      return failure();
  }
  if (steps < 0)
    emitFinalize();
  return "module attributes {transform.with_named_sequence} {\n"
         "  transform.named_sequence @__transform_main(%root: "
         "!transform.any_op {transform.readonly}) {\n" +
         script +
         "    transform.yield\n  }\n}\n";
}

} // namespace

std::string mlir::qimeng::getLoopName(StringRef tag, int64_t dim) {
  return (tag + "." + Twine(dim)).str();
}

FailureOr<BuiltinScript>
mlir::qimeng::buildBuiltinScript(PlanOp plan, func::FuncOp kernel, int steps) {
  ScriptBuilder builder(plan, kernel, steps);
  FailureOr<std::string> text = builder.build();
  if (failed(text))
    return failure();
  return BuiltinScript{std::move(*text), builder.takeUnrolls()};
}
