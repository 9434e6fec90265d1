//===- QiMengTransformOps.cpp - QiMeng transform ops ----------------------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/LoopAccumulators.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/SharedBuffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/WarpReductions.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

//===----------------------------------------------------------------------===//
// MapForallToGridOp
//===----------------------------------------------------------------------===//

/// Grid limits of CUDA: blocks along x, and along y or z.
static constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
static constexpr int64_t kMaxGridYZ = 65535;

/// Creates a gpu.launch of `grid` blocks (x, y, z) and one thread each in
/// place of `forall`, whose body moves into it with its induction variables
/// replaced by what `getIndices` returns (given the launch's block ids).
static gpu::LaunchOp replaceWithLaunch(
    RewriterBase &rewriter, scf::ForallOp forall, ArrayRef<Value> grid,
    function_ref<SmallVector<Value>(gpu::KernelDim3)> getIndices) {
  Location loc = forall.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, grid[0], grid[1], grid[2],
                                      one, one, one);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  SmallVector<Value> ivs = getIndices(launch.getBlockIds());
  Block *loopBody = forall.getBody();
  rewriter.eraseOp(loopBody->getTerminator());
  rewriter.inlineBlockBefore(loopBody, terminator, ivs);
  rewriter.eraseOp(forall);
  return launch;
}

/// The product of `counts` as an index value at the rewriter's place.
static Value multiply(RewriterBase &rewriter, Location loc,
                      ArrayRef<OpFoldResult> counts) {
  int64_t product = 1;
  SmallVector<Value> dynamic;
  for (OpFoldResult count : counts) {
    if (std::optional<int64_t> c = getConstantIntValue(count))
      product *= *c;
    else
      dynamic.push_back(cast<Value>(count));
  }
  bool startDynamic = product == 1 && !dynamic.empty();
  Value total = startDynamic
                    ? dynamic.front()
                    : arith::ConstantIndexOp::create(rewriter, loc, product);
  for (Value count : ArrayRef<Value>(dynamic).drop_front(startDynamic ? 1 : 0))
    total = arith::MulIOp::create(rewriter, loc, total, count);
  return total;
}

/// Every loop mapped to a linear block id (`linearIdOfLoop`, 0 fastest): the
/// blocks are numbered along x.
static DiagnosedSilenceableFailure
mapLinear(transform::TransformRewriter &rewriter, scf::ForallOp forall,
          ArrayRef<int64_t> linearIdOfLoop,
          transform::ApplyToEachResultList &results) {
  Location loc = forall.getLoc();
  SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
  // Slowest first: the loop of the highest linear id.
  SmallVector<unsigned> order(ubs.size());
  for (auto [loop, id] : llvm::enumerate(linearIdOfLoop))
    order[ubs.size() - 1 - id] = loop;
  SmallVector<OpFoldResult> basis;
  for (unsigned loop : order)
    basis.push_back(ubs[loop]);
  if (llvm::all_of(basis, [](OpFoldResult c) {
        return getConstantIntValue(c).has_value();
      })) {
    int64_t blocks = 1;
    for (OpFoldResult c : basis)
      blocks *= *getConstantIntValue(c);
    if (blocks > kMaxGridX)
      return emitSilenceableFailure(forall)
             << "needs " << blocks << " blocks; at most " << kMaxGridX
             << " can be launched";
  }
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value total = multiply(rewriter, loc, basis);
  gpu::LaunchOp launch = replaceWithLaunch(
      rewriter, forall, {total, one, one}, [&](gpu::KernelDim3 ids) {
        auto split = affine::AffineDelinearizeIndexOp::create(rewriter, loc,
                                                              ids.x, basis);
        SmallVector<Value> ivs(order.size());
        for (auto [position, loop] : llvm::enumerate(order))
          ivs[loop] = split.getResult(position);
        return ivs;
      });
  results.push_back(launch);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::MapForallToGridOp::applyToOne(
    transform::TransformRewriter &rewriter, scf::ForallOp forall,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  if (forall->getParentOfType<gpu::LaunchOp>())
    return emitSilenceableError()
           << "the forall is inside a gpu.launch already";
  if (!forall.isNormalized())
    return emitSilenceableError()
           << "expects a normalized forall (lower bounds 0, steps 1)";
  if (forall.getNumResults() != 0)
    return emitSilenceableError()
           << "expects a forall on buffers (one without results)";
  std::optional<ArrayAttr> mapping = forall.getMapping();
  int64_t rank = forall.getRank();
  if (!mapping || static_cast<int64_t>(mapping->size()) != rank)
    return emitSilenceableError() << "expects each loop mapped to a block id";
  // Each loop's block id: x, y, z (0, 1, 2), or its place among linear ids
  // (0 fastest), which are all numbered along x.
  SmallVector<int64_t> idOfLoop;
  bool linear = false;
  for (auto [i, attr] : llvm::enumerate(*mapping)) {
    auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr);
    if (block && i == 0)
      linear = block.isLinearMapping();
    int64_t id = block ? (linear ? block.getRelativeIndex()
                                 : static_cast<int64_t>(block.getMappingId()))
                       : -1;
    if (!block || block.isLinearMapping() != linear || id < 0 ||
        id >= (linear ? rank : 3) || llvm::is_contained(idOfLoop, id))
      return emitSilenceableError()
             << "expects each loop mapped to a distinct #gpu.block<x|y|z> "
                "(or each to a distinct #gpu.block<linear_dim_N>), got "
             << attr;
    idOfLoop.push_back(id);
  }

  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  if (linear)
    return mapLinear(rewriter, forall, idOfLoop, results);
  SmallVector<int64_t> gridDimOf = idOfLoop;
  SmallVector<OpFoldResult> counts(3, rewriter.getIndexAttr(1));
  for (auto [loop, ub] : llvm::enumerate(forall.getMixedUpperBound()))
    counts[gridDimOf[loop]] = ub;
  // A grid of the loop's shape when it is static and within the limits;
  // otherwise the blocks are numbered along x.
  std::optional<int64_t> x = getConstantIntValue(counts[0]);
  std::optional<int64_t> y = getConstantIntValue(counts[1]);
  std::optional<int64_t> z = getConstantIntValue(counts[2]);
  bool shaped =
      x && y && z && *x <= kMaxGridX && *y <= kMaxGridYZ && *z <= kMaxGridYZ;
  if (x && y && z && *x * *y * *z > kMaxGridX)
    return emitSilenceableError()
           << "needs " << *x * *y * *z << " blocks; at most " << kMaxGridX
           << " can be launched";
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> grid;
  if (shaped) {
    for (OpFoldResult count : counts)
      grid.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, count));
  } else {
    grid = {multiply(rewriter, loc, counts), one, one};
  }
  gpu::LaunchOp launch =
      replaceWithLaunch(rewriter, forall, grid, [&](gpu::KernelDim3 ids) {
        SmallVector<Value, 3> idOf = {ids.x, ids.y, ids.z};
        if (!shaped) {
          // z slowest, x fastest: the order of the shaped grid's linear ids.
          SmallVector<OpFoldResult> basis;
          SmallVector<int64_t> dims;
          for (int64_t d = 2; d >= 0; --d)
            if (llvm::is_contained(gridDimOf, d)) {
              basis.push_back(counts[d]);
              dims.push_back(d);
            }
          auto split = affine::AffineDelinearizeIndexOp::create(rewriter, loc,
                                                                ids.x, basis);
          for (auto [d, index] : llvm::zip(dims, split.getResults()))
            idOf[d] = index;
        }
        SmallVector<Value> ivs;
        for (int64_t d : gridDimOf)
          ivs.push_back(idOf[d]);
        return ivs;
      });
  results.push_back(launch);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// The in-place steps: tensor cores, warp sharing, stage buffers
//===----------------------------------------------------------------------===//

/// The target tag a launch was made for ("" if none).
static StringRef getLaunchTarget(gpu::LaunchOp launch) {
  auto tag = launch->getAttrOfType<StringAttr>(qimeng::kLaunchTargetAttr);
  return tag ? tag.getValue() : "";
}

/// The effects of every in-place step: reads its handle, rewrites the
/// payload.
static void
getInPlaceEffects(OpOperand &target,
                  SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(target, effects);
  transform::modifiesPayload(effects);
}

void transform::ConvertToMmaSyncOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
  if (getFill())
    transform::consumesHandle(getFillMutable(), effects);
  if (getConsumer())
    transform::consumesHandle(getConsumerMutable(), effects);
}

/// The one payload op of `handle` as an OpTy, or null.
template <typename OpTy>
static OpTy getOnePayloadOp(transform::TransformState &state, Value handle) {
  auto payload = llvm::to_vector(state.getPayloadOps(handle));
  return payload.size() == 1 ? dyn_cast<OpTy>(payload[0]) : OpTy();
}

DiagnosedSilenceableFailure
transform::ConvertToMmaSyncOp::apply(transform::TransformRewriter &,
                                     transform::TransformResults &,
                                     transform::TransformState &state) {
  auto launch = getOnePayloadOp<gpu::LaunchOp>(state, getTarget());
  if (!launch)
    return emitDefiniteFailure() << "expects one gpu.launch";
  if (getFill()) {
    auto fill = getOnePayloadOp<linalg::FillOp>(state, getFill());
    if (!fill)
      return emitDefiniteFailure() << "expects one linalg.fill as 'fill'";
    if (failed(qimeng::startAccumulatorsFromFill(launch, fill)))
      return emitDefiniteFailure()
             << "could not start the accumulators of '"
             << getLaunchTarget(launch) << "' from the fill";
  }
  if (failed(qimeng::convertToMmaSync(launch, getTf32())))
    return emitDefiniteFailure()
           << "could not rewrite the contraction of '"
           << getLaunchTarget(launch) << "' as tensor-core instructions";
  if (getConsumer()) {
    auto consumer = getOnePayloadOp<linalg::GenericOp>(state, getConsumer());
    if (!consumer)
      return emitDefiniteFailure()
             << "expects one linalg.generic as 'consumer'";
    if (failed(qimeng::runConsumerInEpilogue(launch, consumer)))
      return emitDefiniteFailure()
             << "could not run the consumer of '" << getLaunchTarget(launch)
             << "' in its epilogue";
  }
  // The code's precision is recorded where the verifier sees it, lowered
  // or not: on the outermost module.
  if (getTf32()) {
    Operation *top = launch;
    while (Operation *parent = top->getParentOp())
      top = parent;
    top->setAttr(qimeng::QiMengDialect::kTf32AttrName,
                 UnitAttr::get(getContext()));
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::DistributeOverLanesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::DistributeOverLanesOp::applyToOne(
    transform::TransformRewriter &, gpu::LaunchOp target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  if (failed(qimeng::distributeOverLanes(target, getOpTag(), getLanes())))
    return emitDefiniteFailure() << "could not share the work of '"
                                 << getOpTag() << "' among the lanes of a warp";
  return DiagnosedSilenceableFailure::success();
}

void transform::PadSharedTilesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::PadSharedTilesOp::applyToOne(
    transform::TransformRewriter &, linalg::LinalgOp target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  if (failed(qimeng::padSharedTiles(target, getPad())))
    return emitDefiniteFailure()
           << "could not pad the shared-memory tiles of the target";
  return DiagnosedSilenceableFailure::success();
}

void transform::HoistStageBuffersOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::HoistStageBuffersOp::applyToOne(
    transform::TransformRewriter &, scf::ForOp target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  if (failed(qimeng::hoistStageBuffers(target, getName())))
    return emitDefiniteFailure()
           << "could not prepare the shared-memory tiles of loop '" << getName()
           << "' for multi-buffering";
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
transform::MoveReductionLoopsInnermostOp::applyToOne(
    transform::TransformRewriter &rewriter, linalg::LinalgOp target,
    transform::ApplyToEachResultList &results, transform::TransformState &) {
  FailureOr<Operation *> moved =
      qimeng::moveReductionLoopsInnermost(rewriter, target);
  if (failed(moved))
    return emitDefiniteFailure()
           << "could not reorder the loops of " << target->getName();
  results.push_back(*moved);
  return DiagnosedSilenceableFailure::success();
}

void transform::LowerRegisterBlocksOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::LowerRegisterBlocksOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  qimeng::lowerRegisterBlocks(rewriter, target);
  return DiagnosedSilenceableFailure::success();
}

void transform::HoistLoopAccumulatorsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getInPlaceEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::HoistLoopAccumulatorsOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  qimeng::hoistLoopAccumulators(rewriter, target);
  return DiagnosedSilenceableFailure::success();
}

void transform::CheckPipelinableOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::onlyReadsPayload(effects);
}

DiagnosedSilenceableFailure transform::CheckPipelinableOp::applyToOne(
    transform::TransformRewriter &, scf::ForOp target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  // Upstream's pipeliner reads the memory space of every transfer_read in
  // the loop as an integer: one on a GPU address space would crash it.
  for (Operation &op : *target.getBody()) {
    auto read = dyn_cast<vector::TransferReadOp>(op);
    if (!read)
      continue;
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    if (type && type.getMemorySpace() &&
        !isa<IntegerAttr>(type.getMemorySpace())) {
      DiagnosedDefiniteFailure failure =
          emitDefiniteFailure()
          << "cannot pipeline the loop: a read of its body stays a masked "
             "vector transfer (do its tiles divide the problem?)";
      failure.attachNote(read.getLoc()) << "this read";
      return failure;
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::ApplyLowerStridedSlicesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
}

//===----------------------------------------------------------------------===//
// RewriteMatmulAsWgmmaOp
//===----------------------------------------------------------------------===//

void transform::RewriteMatmulAsWgmmaOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::consumesHandle(getOperation()->getOpOperands(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::RewriteMatmulAsWgmmaOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  auto targets = llvm::to_vector(state.getPayloadOps(getTarget()));
  if (targets.size() != 1)
    return emitDefiniteFailure()
           << "expects one matmul, got " << targets.size() << " payload ops";
  auto matmul = dyn_cast<linalg::LinalgOp>(targets.front());
  if (!matmul)
    return emitDefiniteFailure() << "expects a linalg matmul, got '"
                                 << targets.front()->getName() << "'";
  linalg::FillOp fill;
  if (getFill()) {
    auto fills = llvm::to_vector(state.getPayloadOps(getFill()));
    if (fills.size() != 1 || !isa<linalg::FillOp>(fills.front()))
      return emitDefiniteFailure() << "expects one linalg.fill as 'fill'";
    fill = cast<linalg::FillOp>(fills.front());
  }
  linalg::GenericOp consumer;
  if (getConsumer()) {
    auto consumers = llvm::to_vector(state.getPayloadOps(getConsumer()));
    if (consumers.size() != 1 || !isa<linalg::GenericOp>(consumers.front()))
      return emitDefiniteFailure()
             << "expects one linalg.generic as 'consumer'";
    consumer = cast<linalg::GenericOp>(consumers.front());
  }
  ArrayRef<int64_t> tile = getTile();
  if (tile.size() != 3)
    return emitDefiniteFailure() << "expects a tile of three sizes (M, N, K)";
  qimeng::WgmmaOptions options;
  options.tileM = tile[0];
  options.tileN = tile[1];
  options.tileK = tile[2];
  options.warpgroupRows = getWarpgroupRows();
  options.stages = getStages();
  options.groupRows = getGroupRows();
  FailureOr<gpu::LaunchOp> launch =
      qimeng::rewriteMatmulAsWgmma(rewriter, matmul, fill, consumer, options,
                                   getTag());
  if (failed(launch))
    return emitDefiniteFailure()
           << "could not rewrite '" << getTag() << "' as a wgmma kernel";
  results.set(cast<OpResult>(getLaunch()), {launch->getOperation()});
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// The extension
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.cpp.inc"

namespace {
class QiMengTransformExtension
    : public transform::TransformDialectExtension<QiMengTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QiMengTransformExtension)
  using Base::Base;

  void init() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::qimeng::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<QiMengTransformExtension>();
}
