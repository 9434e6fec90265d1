//===- ScriptActions.cpp - One transform step per macro action ------------===//
//
// Tile, promote, vectorize, unroll, mma and pipeline: each writes the
// transform ops of its step (or records what the later sequences do).
//
//===----------------------------------------------------------------------===//

#include "ScriptBuilder.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Epilogues.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/SharedBuffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"
#include "QiMeng/Planner/OpFamily.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::microcoder;

SmallVector<int64_t>
microcoder::getMappedThreadCounts(ArrayRef<int64_t> blockTile,
                                  ArrayRef<int64_t> threadTile) {
  constexpr int64_t kMaxBlockDimXY = 1024, kMaxBlockDimZ = 64;
  constexpr int64_t kMaxThreadsPerBlock = 1024;
  SmallVector<int64_t> counts;
  for (auto [b, t] : llvm::zip(blockTile, threadTile))
    counts.push_back(t == 0 ? 0 : b / t);
  SmallVector<int64_t> mapped; // x, y, z
  for (int64_t c : llvm::reverse(counts))
    if (c > 0)
      mapped.push_back(c);
  int64_t total = 1;
  for (int64_t c : mapped)
    total *= c;
  bool fits = mapped.size() <= 3 && total <= kMaxThreadsPerBlock &&
              llvm::all_of(llvm::enumerate(mapped), [](auto dim) {
                return dim.value() <=
                       (dim.index() == 2 ? kMaxBlockDimZ : kMaxBlockDimXY);
              });
  if (fits)
    return counts;
  auto innermost =
      llvm::find_if(llvm::reverse(counts), [](int64_t c) { return c > 0; });
  for (int64_t &c : counts)
    if (c == 1)
      c = 0;
  if (llvm::none_of(counts, [](int64_t c) { return c > 0; }) &&
      innermost != llvm::reverse(counts).end())
    *innermost = 1;
  return counts;
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
      os << llvm::formatv("    {0} = transform.param.constant {1} -> "
                          "!transform.any_param\n"
                          "    transform.annotate {2} \"{3}\" = {0} : "
                          "!transform.any_op, !transform.any_param\n",
                          name, quote(getLoopName(op.getTarget(), dim)), handle,
                          kLoopNameAttr);
    }
    return success();
  }
  case TileLevel::block: {
    std::string forall = emitTileUsingForall(
        target, "tile_sizes " + list(op.getSizes()) + interchange,
        mapping(op.getSizes(), "block"));
    state.blockHandle = forall;
    state.dynamicGrid = needsOwnGrid(op);
    return success();
  }
  case TileLevel::thread: {
    // Threads are tiled by their count (block tile / thread tile), so the
    // thread loop stays static when a block tile is partial at the border.
    SmallVector<int64_t> counts =
        getMappedThreadCounts(state.blockTile, op.getSizes());
    emitTileUsingForall(target, "num_threads " + list(counts) + interchange,
                        mapping(counts, "thread"));
    return success();
  }
  case TileLevel::warp: {
    // A warp tile every thread of the block shares is the block's tile: no
    // loop of its own (distribute_over_lanes spreads it over the threads).
    if (op.getLanes() != kWarpSize)
      return success();
    SmallVector<int64_t> counts;
    for (auto [b, t] : llvm::zip(state.blockTile, op.getSizes()))
      counts.push_back(t == 0 ? 0 : b / t);
    emitTileUsingForall(target, "num_threads " + list(counts) + interchange,
                        mapping(op.getSizes(), "warp"));
    return success();
  }
  }
  llvm_unreachable("unknown tile level");
}

/// Whether the block tiles of `op` make a grid that upstream's
/// map_forall_to_blocks cannot launch: a dynamic number of blocks along a
/// loop, more than 65535 along y or z (the innermost tiled loop goes to x),
/// or more than three tiled loops.
bool ScriptBuilder::needsOwnGrid(TileOp op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(
      lookupTaggedOp(kernel, op.getTarget()));
  if (!linalgOp)
    return false;
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<int64_t> blocks;
  for (auto [range, size] : llvm::zip(ranges, op.getSizes()))
    if (size > 0) {
      if (ShapedType::isDynamic(range))
        return true;
      blocks.push_back(llvm::divideCeil(range, size));
    }
  // blocks[last] goes to x; the ones before to y and z; more than three
  // take linear ids.
  if (blocks.size() > 3)
    return true;
  for (size_t i = 0; i + 1 < blocks.size(); ++i)
    if (blocks[i] > 65535)
      return true;
  return false;
}

/// The largest power of two that divides `size` (> 0) and is at most `cap`.
static int64_t largestPow2Divisor(int64_t size, int64_t cap) {
  return std::min<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(cap)),
      int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(size)));
}

LogicalResult ScriptBuilder::emitPromote(PromoteOp op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(
      lookupTaggedOp(kernel, op.getTarget()));
  if (!linalgOp)
    return op.emitOpError()
           << "found no linalg operation tagged '" << op.getTarget() << "'";
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
  if (op.getPad() != 0)
    os << llvm::formatv("    transform.qimeng.pad_shared_tiles {0} {{pad = {1} "
                        ": i64} : !transform.any_op\n",
                        promotedOp, op.getPad());
  promoted = true;
  state.promoted = true;

  // Spread each global->shared copy over the block's threads, one 128-bit
  // vector (or one element) per thread and step.
  std::string copies = fresh("copies");
  os << llvm::formatv(
      "    {0} = transform.structured.match ops{{[\"linalg.copy\"]} "
      "in {1} : (!transform.any_op) -> !transform.any_op\n",
      copies, state.blockHandle);
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
    FailureOr<SmallVector<int64_t>> shape = getOperandTileShape(
        linalgOp, index, state.blockTile, state.reductionTile);
    if (failed(shape) || shape->empty())
      return op.emitOpError() << "cannot promote operand " << index
                              << ": its tile is not a static box";
    int64_t cols = shape->back();
    int64_t rows = shape->size() > 1 ? (*shape)[shape->size() - 2] : 1;
    // One 128-bit vector per thread and step (2 x f64, 4 x f32, 8 x f16) when
    // the row allows it; narrower ones when the tile is too small to give every
    // thread a whole vector (idle threads would guard the copy with a branch,
    // which pipelining cannot take); at least one element.
    Type element = getElementTypeOrSelf(linalgOp->getOperand(index).getType());
    int64_t lanes =
        element.isIntOrFloat() && element.getIntOrFloatBitWidth() <= 64
            ? 128 / std::max<int64_t>(8, element.getIntOrFloatBitWidth())
            : 1;
    int64_t perThread = lanes;
    while (perThread > 1 &&
           (cols % perThread != 0 || rows * cols / perThread < threads))
      perThread /= 2;
    int64_t colThreads = largestPow2Divisor(cols / perThread, threads);
    int64_t rowThreads = largestPow2Divisor(rows, threads / colThreads);
    SmallVector<int64_t> numThreads(shape->size(), 0);
    numThreads.back() = colThreads;
    std::string copyMapping = "[#gpu.thread<linear_dim_0>]";
    if (shape->size() > 1) {
      numThreads[shape->size() - 2] = rowThreads;
      copyMapping = "[#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]";
    }
    emitTileUsingForall(handle, "num_threads " + list(numThreads), copyMapping);
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
  targets[op.getTarget()].vectorized = true;
  Operation *payload = lookupTaggedOp(kernel, op.getTarget());
  auto generic = dyn_cast_or_null<linalg::GenericOp>(payload);
  targets[op.getTarget()].genericContraction =
      generic && linalg::isaContractionOpInterface(generic);
  if (targets[op.getTarget()].promoted) {
    std::string copies = fresh("copies");
    os << llvm::formatv(
        "    {0} = transform.structured.match ops{{[\"linalg.copy\"]} in "
        "{1} : (!transform.any_op) -> !transform.any_op\n"
        "    transform.structured.vectorize {0} : !transform.any_op\n",
        copies, targets[op.getTarget()].blockHandle);
  }
  vectorized = true;
  return success();
}

/// Unrolls the serial loop that a reduction tile made for loop `dim`.
LogicalResult ScriptBuilder::emitUnroll(UnrollOp op) {
  TargetState &state = targets[op.getTarget()];
  int64_t dim = op.getDim();
  if (dim >= static_cast<int64_t>(state.reductionTile.size()) ||
      state.reductionTile[dim] == 0)
    return op.emitOpError()
           << "unrolls loop " << dim << " of '" << op.getTarget()
           << "', but no reduction tile of the plan makes a serial loop for it";
  std::string loop = getLoopName(op.getTarget(), dim);
  if (state.pipelinedLoops.contains(loop))
    return op.emitOpError()
           << "unrolls loop " << dim << " of '" << op.getTarget()
           << "', which a pipeline action already takes; "
              "the built-in micro-coder does not do both";
  state.unrolledLoops.insert(loop);
  // Unrolled at the end, after the accumulators were hoisted into registers
  // (two copies of a read/write pair in one iteration would block that).
  unrolls.push_back(op);
  return success();
}

/// Tensor cores: the warp-level contraction is unrolled to the instruction
/// shape after the GPU mapping; the caller then rewrites it as mma.sync
/// (convertToMmaSync).
LogicalResult ScriptBuilder::emitMma(MmaOp op) {
  TargetState &state = targets[op.getTarget()];
  if (op.getKind() == MmaKind::wgmma)
    return emitWgmma(op, state);
  if (op.getKind() != MmaKind::mma_sync)
    return op.emitOpError() << "asks for " << stringifyMmaKind(op.getKind())
                            << "; the built-in micro-coder implements "
                               "mma_sync and wgmma";
  // Every mma_sync type the op's verifier accepts is implemented: f16 and
  // bf16 operands from ldmatrix (bf16 converted as f16 and lowered by
  // qimeng-lower-bf16-mma-sync), f64 ones (m8n8k4, from plain shared loads)
  // and f32 ones declared as tf32 (m16n8k8 or m16n8k4), by upstream's
  // vector-to-mma.sync conversion (convertToMmaSync).
  if (!state.fusedInto.empty())
    return op.emitOpError() << "computes '" << op.getTarget()
                            << "' on tensor cores, but it was fused into '"
                            << state.fusedInto << "'; only the target of a "
                            << "fusion can";
  if (state.warpTile.empty() || !state.vectorized || !state.mmaShape.empty())
    return op.emitOpError() << "needs '" << op.getTarget()
                            << "' tiled to warps and vectorized first, and "
                               "one mma action per target";
  // The instruction shape is (m, n, k): the warp tile's last three loops
  // (batch loops before them take one batch per block).
  ArrayRef<int64_t> warpMNK = ArrayRef<int64_t>(state.warpTile).take_back(3);
  for (auto [size, native] : llvm::zip(warpMNK, op.getShape()))
    if (size % native != 0)
      return op.emitOpError()
             << "instruction shape " << list(op.getShape())
             << " does not divide the warp tile " << list(state.warpTile);
  state.mmaShape.assign(op.getShape().begin(), op.getShape().end());
  mmas.push_back(op);
  return success();
}

/// Hopper: the whole matmul becomes one TMA + wgmma kernel
/// (transform.qimeng.rewrite_matmul_as_wgmma) built from the block tile
/// (M, N), the reduction tile (K), the warp tile (rows per consumer
/// warpgroup), the pipeline's stages and the fill fused into it.
LogicalResult ScriptBuilder::emitWgmma(MmaOp op, TargetState &state) {
  auto matmul =
      dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(kernel, op.getTarget()));
  if (!matmul)
    return op.emitOpError() << "computes '" << op.getTarget()
                            << "' with wgmma, but it is not a linalg op";
  if (std::string why = whyNotWgmma(matmul); !why.empty())
    return op.emitOpError() << "computes '" << op.getTarget()
                            << "' with wgmma, but " << why;
  // A batch loop (before m, n and k) takes one batch per block: tile 1,
  // no reduction tile.
  size_t batch = getWgmmaBatchLoops(matmul);
  auto split = [&](ArrayRef<int64_t> tile, int64_t lead,
                   ArrayRef<int64_t> &mnk) {
    if (tile.size() != batch + 3 ||
        llvm::any_of(tile.take_front(batch),
                     [&](int64_t size) { return size != lead; }))
      return false;
    mnk = tile.take_back(3);
    return true;
  };
  ArrayRef<int64_t> block, reduction, warp;
  if (!split(state.blockTile, 1, block) ||
      !split(state.reductionTile, 0, reduction) ||
      !split(state.warpTile, 1, warp) || block[2] != 0 || reduction[0] != 0 ||
      reduction[1] != 0 || warp[1] != block[1] || warp[2] != 0)
    return op.emitOpError()
           << "needs '" << op.getTarget()
           << "' tiled to blocks [M, N, 0], reduction [0, 0, K] and warps "
              "[rows, N, 0] (rows per consumer warpgroup; a batch loop before "
              "them tiled 1, 0 and 1); got blocks "
           << list(state.blockTile) << ", reduction "
           << list(state.reductionTile) << ", warps " << list(state.warpTile);
  if (op.getShape()[1] != block[1])
    return op.emitOpError() << "instruction shape " << list(op.getShape())
                            << " does not span the block tile's N of "
                            << block[1];
  WgmmaOptions options;
  options.tileM = block[0];
  options.tileN = block[1];
  options.tileK = reduction[2];
  options.warpgroupRows = warp[0];
  options.stages = state.stages;
  if (std::string why = whyNotWgmmaOptions(options); !why.empty())
    return op.emitOpError() << "cannot build the wgmma kernel of '"
                            << op.getTarget() << "': " << why;
  std::string target = match(op.getTarget());
  std::string fill;
  if (!state.fusedFill.empty()) {
    if (!isa_and_nonnull<linalg::FillOp>(
            lookupTaggedOp(kernel, state.fusedFill)))
      return op.emitOpError() << "fuses '" << state.fusedFill
                              << "' into a wgmma kernel; only a linalg.fill "
                                 "of its output can be";
    fill = match(state.fusedFill);
  }
  std::string consumer;
  if (!state.fusedConsumer.empty()) {
    auto generic = dyn_cast_or_null<linalg::GenericOp>(
        lookupTaggedOp(kernel, state.fusedConsumer));
    if (!generic)
      return op.emitOpError() << "fuses '" << state.fusedConsumer
                              << "' into a wgmma kernel's epilogue; only a "
                                 "linalg.generic can be";
    if (std::string why =
            whyNotEpilogueConsumer(generic, matmul.getDpsInitOperand(0)->get());
        !why.empty())
      return op.emitOpError()
             << "fuses '" << state.fusedConsumer
             << "' into a wgmma kernel's epilogue, but " << why;
    consumer = match(state.fusedConsumer);
  }
  size_t handles = 1 + !fill.empty() + !consumer.empty();
  os << llvm::formatv(
      "    {0} = transform.qimeng.rewrite_matmul_as_wgmma {1}{2}{3} {{tag = "
      "{4}, tile = array<i64: {5}, {6}, {7}>, warpgroup_rows = {8} : i64, "
      "stages = {9} : i64, group_rows = {10} : i64} : ({11}) -> "
      "!transform.any_op\n",
      fresh("wgmma"), target, fill.empty() ? "" : " fill " + fill,
      consumer.empty() ? "" : " consumer " + consumer, quote(op.getTarget()),
      options.tileM, options.tileN, options.tileK, options.warpgroupRows,
      options.stages, options.groupRows, anyOpTypes(handles));
  return success();
}

/// Pipelines the serial loop that the reduction tile of the target made: its
/// shared-memory tiles get one buffer per stage and are filled by cp.async
/// `stages - 1` iterations ahead. Realized after the GPU mapping.
LogicalResult ScriptBuilder::emitPipeline(PipelineOp op) {
  TargetState &state = targets[op.getTarget()];
  SmallVector<int64_t> dims;
  for (auto [dim, size] : llvm::enumerate(state.reductionTile))
    if (size > 0)
      dims.push_back(dim);
  if (dims.size() != 1)
    return op.emitOpError() << "pipelines '" << op.getTarget()
                            << "', which needs exactly one serial loop from "
                               "a reduction tile; it has "
                            << dims.size();
  if (!state.promoted || !state.vectorized)
    return op.emitOpError()
           << "pipelines the shared-memory copies of '" << op.getTarget()
           << "': promote and vectorize it first";
  std::string loop = getLoopName(op.getTarget(), dims.front());
  if (state.unrolledLoops.contains(loop))
    return op.emitOpError()
           << "pipelines loop " << dims.front() << " of '" << op.getTarget()
           << "', which an unroll action already takes; "
              "the built-in micro-coder does not do both";
  state.pipelinedLoops.insert(loop);
  pipelines.push_back({op, loop});
  return success();
}

/// The memrefs `op` reads and the ones it writes.
static void getAccessedBuffers(linalg::LinalgOp op,
                               llvm::SmallPtrSetImpl<Value> &reads,
                               llvm::SmallPtrSetImpl<Value> &writes) {
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<MemRefType>(input->get().getType()))
      reads.insert(input->get());
  for (OpOperand &init : op.getDpsInitsMutable()) {
    writes.insert(init.get());
    if (op.payloadUsesValueFromOperand(&init))
      reads.insert(init.get());
  }
}

/// For each buffer dimension of `operand`: its size, the size of its tile
/// under `tile` (the loop tile sizes of `op`) and which tiled loop (in loop
/// order, i.e. which GPU id) walks it, -1 for none. A dimension read at
/// index 0 (frontends write `(d0, 0)` for a kept reduced dimension of one)
/// is the box (1, 1, -1), the same as a loop over a dimension of one. Fails
/// unless every result of the operand's map is a loop (each at most once)
/// or 0.
static FailureOr<SmallVector<std::tuple<int64_t, int64_t, int64_t>>>
getBufferTiles(linalg::LinalgOp op, OpOperand &operand,
               ArrayRef<int64_t> tile) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<std::tuple<int64_t, int64_t, int64_t>> tiles;
  for (AffineExpr e : map.getResults()) {
    if (isa<AffineConstantExpr>(e)) {
      tiles.emplace_back(1, 1, -1);
      continue;
    }
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    int64_t size = loop < tile.size() ? tile[loop] : 0;
    int64_t id = -1;
    if (size > 0)
      id = llvm::count_if(tile.take_front(loop),
                          [](int64_t t) { return t > 0; });
    tiles.emplace_back(ranges[loop], size == 0 ? ranges[loop] : size, id);
  }
  return tiles;
}

/// The number of blocks along each loop `tile` maps to blocks, in loop order
/// (kDynamic for a dynamic loop).
static SmallVector<int64_t> getGrid(linalg::LinalgOp op,
                                    ArrayRef<int64_t> tile) {
  SmallVector<int64_t> blocks;
  for (auto [range, size] : llvm::zip(op.getStaticLoopRanges(), tile))
    if (size > 0)
      blocks.push_back(ShapedType::isDynamic(range)
                           ? ShapedType::kDynamic
                           : llvm::divideCeil(range, size));
  return blocks;
}

/// Fusion of two targets tiled to warps: the same grid, and every buffer one
/// writes and the other uses taken in the same box by each block (what a
/// block's warps write, only that block's warps read, after the barrier
/// between the two).
LogicalResult ScriptBuilder::emitWarpFuse(FuseOp op, TargetState &host,
                                          TargetState &other,
                                          linalg::LinalgOp hostOp,
                                          linalg::LinalgOp otherOp,
                                          bool isProducer) {
  if (getGrid(hostOp, host.blockTile) != getGrid(otherOp, other.blockTile))
    return op.emitOpError() << "fuses '" << op.getOp()
                            << "' whose block grid differs from that of '"
                            << op.getTarget() << "'";
  llvm::SmallPtrSet<Value, 4> hostReads, hostWrites, otherReads, otherWrites;
  getAccessedBuffers(hostOp, hostReads, hostWrites);
  getAccessedBuffers(otherOp, otherReads, otherWrites);
  auto boxOf = [](linalg::LinalgOp linalgOp, Value buffer,
                  ArrayRef<int64_t> tile)
      -> FailureOr<SmallVector<std::tuple<int64_t, int64_t, int64_t>>> {
    for (OpOperand &operand : linalgOp->getOpOperands())
      if (operand.get() == buffer)
        return getBufferTiles(linalgOp, operand, tile);
    return failure();
  };
  for (Value buffer : llvm::concat<Value>(hostWrites, otherWrites)) {
    bool shared = (hostReads.contains(buffer) || hostWrites.contains(buffer)) &&
                  (otherReads.contains(buffer) || otherWrites.contains(buffer));
    if (!shared)
      continue;
    auto hostBox = boxOf(hostOp, buffer, host.blockTile);
    auto otherBox = boxOf(otherOp, buffer, other.blockTile);
    if (failed(hostBox) || failed(otherBox) || *hostBox != *otherBox)
      return op.emitOpError()
             << "fuses '" << op.getOp() << "' into '" << op.getTarget()
             << "', but their blocks take different boxes of a buffer one of "
                "them writes; blocks would race";
  }
  return emitFuseSibling(op, host, other, isProducer);
}

/// Fusion merges the fused op's block loop into the target's: the two must
/// have the same grid, give each block the same box of the buffer that one
/// writes and the other reads (so no block reads what another writes), and
/// touch no other buffer that the other writes.
LogicalResult ScriptBuilder::emitFuse(FuseOp op) {
  TargetState &host = targets[op.getTarget()];
  auto it = targets.find(op.getOp());
  if (it == targets.end() || it->second.blockHandle.empty())
    return op.emitOpError() << "fuses '" << op.getOp()
                            << "', which the plan does not tile to blocks "
                               "before this action";
  TargetState &other = it->second;
  if (!host.fusedInto.empty() || !other.fusedInto.empty() ||
      op.getTarget() == op.getOp())
    return op.emitOpError()
           << "fuses '" << op.getOp() << "' into '" << op.getTarget()
           << "', but one of them is already fused";
  if (!other.mmaShape.empty())
    return op.emitOpError() << "fuses '" << op.getOp()
                            << "', which computes on tensor cores; only the "
                               "target of a fusion can";
  if (host.blockDims != other.blockDims)
    return op.emitOpError()
           << "fuses '" << op.getOp() << "' (" << list(other.blockDims)
           << " threads) into '" << op.getTarget() << "' ("
           << list(host.blockDims)
           << " threads); the built-in micro-coder needs the same threads "
              "per block";
  auto hostOp = dyn_cast_or_null<linalg::LinalgOp>(
      lookupTaggedOp(kernel, op.getTarget()));
  auto otherOp =
      dyn_cast_or_null<linalg::LinalgOp>(lookupTaggedOp(kernel, op.getOp()));
  if (!hostOp || !otherOp)
    return op.emitOpError() << "fuses operations the built-in micro-coder "
                               "cannot tile (not linalg)";
  bool isProducer = op.getKind() == FuseKind::producer;
  // Two targets tiled to warps (rows of a row-wise kernel): the thread
  // mapping puts a barrier after each, so they may share any buffer whose
  // box each block takes is the same on both sides.
  if (!host.warpTile.empty() && !other.warpTile.empty() &&
      host.mmaShape.empty() && other.mmaShape.empty())
    return emitWarpFuse(op, host, other, hostOp, otherOp, isProducer);
  linalg::LinalgOp producer = isProducer ? otherOp : hostOp;
  linalg::LinalgOp consumer = isProducer ? hostOp : otherOp;
  const TargetState &producerState = isProducer ? other : host;
  const TargetState &consumerState = isProducer ? host : other;
  // The buffer that flows from producer to consumer, and its tiles.
  OpOperand *written = nullptr, *read = nullptr;
  for (OpOperand &init : producer.getDpsInitsMutable())
    for (OpOperand &use : consumer->getOpOperands())
      if (use.get() == init.get() && !written) {
        written = &init;
        read = &use;
      }
  if (!written)
    return op.emitOpError() << "fuses '" << op.getOp()
                            << "', but no buffer flows between the two";
  auto producerTiles =
      getBufferTiles(producer, *written, producerState.blockTile);
  auto consumerTiles = getBufferTiles(consumer, *read, consumerState.blockTile);
  if (failed(producerTiles) || failed(consumerTiles) ||
      *producerTiles != *consumerTiles)
    return op.emitOpError()
           << "fuses '" << op.getOp() << "' with block tiles that cover "
           << "different boxes of the buffer they share; the block tiles "
              "must match on it";
  // Each thread reads only what it wrote itself: the same per-thread box of
  // the shared buffer (no barrier is needed between the two bodies).
  auto producerThreadTiles =
      getBufferTiles(producer, *written, producerState.threadTile);
  auto consumerThreadTiles =
      getBufferTiles(consumer, *read, consumerState.threadTile);
  if (producerState.threadTile.empty() || consumerState.threadTile.empty() ||
      failed(producerThreadTiles) || failed(consumerThreadTiles) ||
      *producerThreadTiles != *consumerThreadTiles)
    return op.emitOpError()
           << "fuses '" << op.getOp() << "', but the thread tiles of the two "
           << "differ on the buffer they share (or one is tiled to warps); "
              "tile both to threads first, with the same box per thread";
  // Grids: the same number of blocks along each mapped loop, in order.
  if (getGrid(hostOp, host.blockTile) != getGrid(otherOp, other.blockTile))
    return op.emitOpError() << "fuses '" << op.getOp()
                            << "' whose block grid differs from that of '"
                            << op.getTarget() << "'";
  // Other buffers: neither op may write what the other reads or writes.
  llvm::SmallPtrSet<Value, 4> hostReads, hostWrites, otherReads, otherWrites;
  getAccessedBuffers(hostOp, hostReads, hostWrites);
  getAccessedBuffers(otherOp, otherReads, otherWrites);
  Value shared = written->get();
  auto conflicts = [&](llvm::SmallPtrSetImpl<Value> &writes,
                       llvm::SmallPtrSetImpl<Value> &reads,
                       llvm::SmallPtrSetImpl<Value> &otherWritten) {
    return llvm::any_of(writes, [&](Value v) {
      return v != shared && (reads.contains(v) || otherWritten.contains(v));
    });
  };
  if (conflicts(hostWrites, otherReads, otherWrites) ||
      conflicts(otherWrites, hostReads, hostWrites))
    return op.emitOpError()
           << "fuses '" << op.getOp() << "' into '" << op.getTarget()
           << "', but one writes a buffer the other also "
              "uses; blocks would race";
  return emitFuseSibling(op, host, other, isProducer);
}

LogicalResult ScriptBuilder::emitFuseSibling(FuseOp op, TargetState &host,
                                             TargetState &other,
                                             bool isProducer) {
  // The loop placed first in the fused body goes in as `target`.
  std::string first = isProducer ? other.blockHandle : host.blockHandle;
  std::string second = isProducer ? host.blockHandle : other.blockHandle;
  // Dynamic grids: their trip counts are read off different buffers (an
  // input, a temporary sized from it); folded and deduplicated, they are
  // the same value, which fusion needs.
  if (host.dynamicGrid || other.dynamicGrid) {
    std::string k = matchKernel();
    os << llvm::formatv("    transform.apply_patterns to {0} {{\n"
                        "      transform.apply_patterns.canonicalization\n"
                        "    } : !transform.any_op\n"
                        "    transform.apply_cse to {0} : !transform.any_op\n",
                        k);
  }
  std::string fused = fresh("fused");
  os << llvm::formatv("    {0} = transform.loop.fuse_sibling {1} into {2} : "
                      "(!transform.any_op, !transform.any_op) -> "
                      "!transform.any_op\n",
                      fused, first, second);
  host.blockHandle = fused;
  other.blockHandle = fused;
  other.fusedInto = op.getTarget().str();
  return success();
}
