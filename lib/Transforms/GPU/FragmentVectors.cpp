//===- FragmentVectors.cpp - Tensor-core fragments the NVVM lowering takes ===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGLOWERFRAGMENTVECTORSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

class QiMengLowerFragmentVectorsPass
    : public impl::QiMengLowerFragmentVectorsPassBase<
          QiMengLowerFragmentVectorsPass> {
public:
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    // No folding: a folder could turn the inserts back into broadcasts.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      getOperation()->emitError()
          << "the lowering of n-D vector broadcasts did not converge";
  }
};

} // namespace
} // namespace mlir::qimeng
