//===- KernelSummary.cpp - What a planner is told about a kernel ----------===//

#include "QiMeng/Planner/KernelSummary.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Planner/OpFamily.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qimeng;

std::string mlir::qimeng::printSanitizedKernel(func::FuncOp kernel) {
  OpBuilder builder(kernel.getContext());
  // A clone in a scratch module, so the original keeps its attributes.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(scratch->getBody());
  auto clone = cast<func::FuncOp>(builder.clone(*kernel));
  Location unknown = builder.getUnknownLoc();
  clone->walk([&](Operation *op) {
    op->setLoc(unknown);
    for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
      if (attr.getName() != QiMengDialect::kTagAttrName)
        op->removeDiscardableAttr(attr.getName());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setLoc(unknown);
  });
  clone.setAllArgAttrs(ArrayRef<DictionaryAttr>{});
  clone.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
  std::string text;
  llvm::raw_string_ostream os(text);
  clone->print(os, OpPrintingFlags().elideLargeElementsAttrs(16));
  return text;
}

std::string mlir::qimeng::summarizeKernel(func::FuncOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel.walk([&](linalg::LinalgOp op) {
    auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
    if (!tag)
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    os << "- op '" << tag.getValue() << "': " << op->getName() << ", family "
       << familyName(classify(op)) << "\n  loops: [";
    bool dynamic = false;
    for (auto [i, range] : llvm::enumerate(ranges)) {
      bool parallel =
          op.getIteratorTypesArray()[i] == utils::IteratorType::parallel;
      os << (i ? ", " : "")
         << (ShapedType::isDynamic(range) ? std::string("?")
                                          : std::to_string(range))
         << (parallel ? " parallel" : " reduction");
      dynamic |= ShapedType::isDynamic(range);
    }
    os << "]\n  operands:";
    int64_t bytes = 0;
    for (OpOperand &operand : op->getOpOperands()) {
      auto shaped = dyn_cast<ShapedType>(operand.get().getType());
      bool init = op.isDpsInit(&operand);
      os << " " << (init ? "out " : "in ") << operand.get().getType() << ";";
      if (!shaped || !shaped.hasStaticShape()) {
        dynamic |= static_cast<bool>(shaped);
        continue;
      }
      int64_t size =
          shaped.getNumElements() * getElementBytes(shaped.getElementType());
      // Outputs are written, and read too when the body uses them.
      bytes +=
          init && op.payloadUsesValueFromOperand(&operand) ? 2 * size : size;
    }
    os << "\n";
    if (dynamic) {
      os << "  FLOPs and bytes: unknown (dynamic shapes)\n";
      return;
    }
    int64_t iterations = 1;
    for (int64_t range : ranges)
      iterations *= range;
    int64_t bodyOps = 0;
    for (Operation &inner : op->getRegion(0).front())
      if (!isa<linalg::YieldOp>(inner))
        ++bodyOps;
    int64_t flops = iterations * std::max<int64_t>(1, bodyOps);
    os << llvm::formatv("  FLOPs: {0}; bytes moved (at least): {1}; "
                        "arithmetic intensity: {2:F2} FLOP/byte\n",
                        flops, bytes,
                        bytes ? double(flops) / double(bytes) : 0.0);
  });
  return text;
}
