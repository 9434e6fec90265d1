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
    // With folding (the default): the lowering leaves same-type broadcasts
    // for the folder, and its own pattern would read one of those as a
    // stretch of element 0.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      getOperation()->emitError()
          << "the lowering of n-D vector broadcasts and shape casts did not "
             "converge";
  }
};

} // namespace
} // namespace mlir::qimeng
