//===- QiMengTransformOps.cpp - QiMeng transform ops ----------------------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/QiMengTransformOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

//===----------------------------------------------------------------------===//
// MapForallToGridOp
//===----------------------------------------------------------------------===//

/// Grid limits of CUDA: blocks along x, and along y or z.
static constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
static constexpr int64_t kMaxGridYZ = 65535;

DiagnosedSilenceableFailure transform::MapForallToGridOp::applyToOne(
    transform::TransformRewriter &rewriter, scf::ForallOp forall,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  if (forall->getParentOfType<gpu::LaunchOp>())
    return emitSilenceableError() << "the forall is inside a gpu.launch already";
  if (!forall.isNormalized())
    return emitSilenceableError()
           << "expects a normalized forall (lower bounds 0, steps 1)";
  if (forall.getNumResults() != 0)
    return emitSilenceableError()
           << "expects a forall on buffers (one without results)";
  std::optional<ArrayAttr> mapping = forall.getMapping();
  int64_t rank = forall.getRank();
  if (!mapping || static_cast<int64_t>(mapping->size()) != rank || rank > 3)
    return emitSilenceableError()
           << "expects a forall of at most 3 loops, each mapped to a block id";
  // The grid dimension (0: x, 1: y, 2: z) each loop goes to.
  SmallVector<int64_t> gridDimOf;
  for (Attribute attr : *mapping) {
    auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr);
    if (!block || block.isLinearMapping() || block.getMappingId() > 2 ||
        llvm::is_contained(gridDimOf, block.getMappingId()))
      return emitSilenceableError()
             << "expects each loop mapped to a distinct #gpu.block<x|y|z>, "
                "got "
             << attr;
    gridDimOf.push_back(block.getMappingId());
  }

  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  SmallVector<OpFoldResult> counts(3, rewriter.getIndexAttr(1));
  for (auto [loop, ub] : llvm::enumerate(forall.getMixedUpperBound()))
    counts[gridDimOf[loop]] = ub;
  // A grid of the loop's shape when it is static and within the limits;
  // otherwise the blocks are numbered along x.
  std::optional<int64_t> x = getConstantIntValue(counts[0]);
  std::optional<int64_t> y = getConstantIntValue(counts[1]);
  std::optional<int64_t> z = getConstantIntValue(counts[2]);
  bool shaped = x && y && z && *x <= kMaxGridX && *y <= kMaxGridYZ &&
                *z <= kMaxGridYZ;
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
    // The static counts' product times each dynamic count.
    int64_t product = 1;
    SmallVector<Value> dynamic;
    for (OpFoldResult count : counts) {
      if (std::optional<int64_t> c = getConstantIntValue(count))
        product *= *c;
      else
        dynamic.push_back(cast<Value>(count));
    }
    Value total = product == 1 && !dynamic.empty()
                      ? dynamic.front()
                      : arith::ConstantIndexOp::create(rewriter, loc, product);
    for (Value count : ArrayRef<Value>(dynamic).drop_front(
             product == 1 && !dynamic.empty() ? 1 : 0))
      total = arith::MulIOp::create(rewriter, loc, total, count);
    grid = {total, one, one};
  }
  auto launch = gpu::LaunchOp::create(rewriter, loc, grid[0], grid[1], grid[2],
                                      one, one, one);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  gpu::KernelDim3 ids = launch.getBlockIds();
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
    auto split = affine::AffineDelinearizeIndexOp::create(rewriter, loc, ids.x,
                                                          basis);
    for (auto [d, index] : llvm::zip(dims, split.getResults()))
      idOf[d] = index;
  }
  SmallVector<Value> ivs;
  for (int64_t d : gridDimOf)
    ivs.push_back(idOf[d]);
  Block *loopBody = forall.getBody();
  rewriter.eraseOp(loopBody->getTerminator());
  rewriter.inlineBlockBefore(loopBody, terminator, ivs);
  rewriter.eraseOp(forall);
  results.push_back(launch);
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
