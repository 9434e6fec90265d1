//===- RecordEqualDims.cpp - Argument sizes tied together, for runners ----===//

#include "QiMeng/Dialect/QiMeng/IR/EqualDims.h"
#include "QiMeng/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGRECORDEQUALDIMSPASS
#include "QiMeng/Transforms/Linalg/Passes.h.inc"

namespace {

class QiMengRecordEqualDimsPass
    : public impl::QiMengRecordEqualDimsPassBase<QiMengRecordEqualDimsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      SmallVector<int64_t> flat;
      for (auto [a, b] : findEqualArgDims(func))
        flat.append({a.arg, a.dim, b.arg, b.dim});
      if (!flat.empty())
        func->setAttr(kEqualDimsAttrName, builder.getDenseI64ArrayAttr(flat));
    }
  }
};

} // namespace
} // namespace mlir::qimeng
