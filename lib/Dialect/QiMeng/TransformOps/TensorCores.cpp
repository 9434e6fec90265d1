//===- TensorCores.cpp - Contractions to tensor-core instructions ---------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult mlir::qimeng::convertToMmaSync(gpu::LaunchOp launch, bool tf32) {
  MLIRContext *ctx = launch.getContext();
  RewritePatternSet patterns(ctx);
  populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(100000);
  if (failed(applyPatternsGreedily(launch, std::move(patterns), config)))
    return launch.emitOpError()
           << "did not converge while preparing contractions for mma.sync";
  // The conversion rebuilds the loops that carry accumulators and drops
  // their attributes (the loop names later steps look for): keep them by
  // position, loops being rebuilt in place.
  auto loopAttrs = [&] {
    SmallVector<std::pair<scf::ForOp, DictionaryAttr>> loops;
    launch.walk([&](scf::ForOp loop) {
      loops.emplace_back(loop, loop->getDiscardableAttrDictionary());
    });
    return loops;
  };
  auto before = loopAttrs();
  IRRewriter rewriter(ctx);
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, launch)))
    return launch.emitOpError() << "could not be rewritten to mma.sync";
  // The conversion leaves the ops it replaced behind, dead: drop them. The
  // conversion takes whole slices or nothing: a contraction left over means
  // its operands or accumulator did not fit the instruction.
  if (failed(applyPatternsGreedily(launch, RewritePatternSet(ctx), config)))
    return launch.emitOpError() << "did not converge while cleaning up";
  auto after = loopAttrs();
  if (after.size() == before.size())
    for (auto [old, rebuilt] : llvm::zip(before, after))
      if (rebuilt.first != old.first)
        rebuilt.first->setDiscardableAttrs(old.second);
  vector::ContractionOp left;
  launch.walk([&](vector::ContractionOp contract) {
    left = contract;
    return WalkResult::interrupt();
  });
  if (left)
    return left.emitOpError()
           << "could not be mapped to mma.sync (operand reads, accumulator "
              "or shape not supported)";
  SmallVector<nvgpu::MmaSyncOp> mmas;
  launch.walk([&](nvgpu::MmaSyncOp mma) { mmas.push_back(mma); });
  if (mmas.empty())
    return launch.emitOpError()
           << "has no contraction of the target's shape to map to mma.sync";
  // f32 operands run as tf32 (their low 13 mantissa bits ignored): only on
  // request.
  for (nvgpu::MmaSyncOp mma : mmas) {
    if (!mma.getMatrixA().getType().getElementType().isF32())
      continue;
    if (!tf32)
      return mma.emitOpError()
             << "has f32 operands, which tensor cores compute as tf32; "
                "that precision was not asked for";
    mma.setTf32EnabledAttr(UnitAttr::get(ctx));
  }
  return success();
}
