//===- ExportPlanJSON.cpp - Write plans as JSON ---------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGEXPORTPLANJSONPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {
class QiMengExportPlanJSONPass
    : public impl::QiMengExportPlanJSONPassBase<QiMengExportPlanJSONPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    llvm::json::Array plans;
    getOperation().walk([&](PlanOp plan) { plans.push_back(planToJSON(plan)); });

    // A unique temporary beside the file, renamed into place: never a
    // half-written file, never a write through a planted symlink.
    if (llvm::Error err = llvm::writeToOutput(output, [&](llvm::raw_ostream &os) {
          os << llvm::formatv("{0:2}", llvm::json::Value(std::move(plans)))
             << "\n";
          return llvm::Error::success();
        })) {
      getOperation().emitError()
          << "cannot write plan JSON: " << llvm::toString(std::move(err));
      return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace mlir::qimeng
