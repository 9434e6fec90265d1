//===- ExportPlanJSON.cpp - Write plans as JSON ---------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

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

    std::string error;
    // ToolOutputFile writes to a temporary and renames on keep(), so a failed
    // run never leaves a half-written file behind.
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError() << "cannot write plan JSON: " << error;
      return signalPassFailure();
    }
    file->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(plans)))
               << "\n";
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace mlir::qimeng
