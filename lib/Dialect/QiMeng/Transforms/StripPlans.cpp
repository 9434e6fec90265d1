//===- StripPlans.cpp - Remove plans and tags -----------------------------===//

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGSTRIPPLANSPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {
class QiMengStripPlansPass
    : public impl::QiMengStripPlansPassBase<QiMengStripPlansPass> {
public:
  void runOnOperation() override {
    getOperation()->walk<WalkOrder::PreOrder>([](Operation *op) {
      if (isa<PlanOp>(op)) {
        op->erase();
        return WalkResult::skip();
      }
      op->removeAttr(QiMengDialect::kTagAttrName);
      return WalkResult::advance();
    });
  }
};
} // namespace
} // namespace mlir::qimeng
