//===- ExportLaunches.cpp - Describe kernel launches as JSON --------------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGEXPORTLAUNCHESPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// Returns a static size as a JSON integer, a dynamic one as null.
llvm::json::Value sizeOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return nullptr;
}

class QiMengExportLaunchesPass
    : public impl::QiMengExportLaunchesPassBase<QiMengExportLaunchesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    llvm::json::Array launches;
    bool failedOperand = false;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      auto func = launch->getParentOfType<func::FuncOp>();
      llvm::json::Array args;
      llvm::DenseMap<Operation *, int64_t> allocIds;
      for (Value operand : launch.getKernelOperands()) {
        llvm::json::Object arg{{"type", debugString(operand.getType())}};
        Attribute constant;
        if (auto blockArg = dyn_cast<BlockArgument>(operand);
            blockArg && blockArg.getOwner()->isEntryBlock() &&
            blockArg.getOwner()->getParentOp() == func) {
          arg["arg"] = static_cast<int64_t>(blockArg.getArgNumber());
        } else if (matchPattern(operand, m_Constant(&constant))) {
          if (auto i = dyn_cast<IntegerAttr>(constant))
            arg["const"] = i.getInt();
          else if (auto f = dyn_cast<FloatAttr>(constant))
            arg["const"] = f.getValueAsDouble();
          else
            arg["const"] = debugString(operand.getType());
        } else if (Operation *def = operand.getDefiningOp();
                   def && isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(def)) {
          auto [it, inserted] = allocIds.try_emplace(def, allocIds.size());
          arg["alloc"] = it->second;
        } else {
          launch.emitError() << "kernel operand " << operand
                             << " is neither a function argument, a "
                                "constant nor a host allocation";
          failedOperand = true;
        }
        args.push_back(std::move(arg));
      }
      launches.push_back(llvm::json::Object{
          {"function", func ? func.getSymName() : StringRef()},
          {"module", launch.getKernelModuleName().getValue()},
          {"kernel", launch.getKernelName().getValue()},
          {"grid", llvm::json::Array{sizeOf(launch.getGridSizeX()),
                                     sizeOf(launch.getGridSizeY()),
                                     sizeOf(launch.getGridSizeZ())}},
          {"block", llvm::json::Array{sizeOf(launch.getBlockSizeX()),
                                      sizeOf(launch.getBlockSizeY()),
                                      sizeOf(launch.getBlockSizeZ())}},
          {"args", std::move(args)}});
    });
    if (failedOperand)
      return signalPassFailure();
    // A unique temporary beside the file, renamed into place: never a
    // half-written file, never a write through a planted symlink.
    if (llvm::Error err = llvm::writeToOutput(output, [&](llvm::raw_ostream &os) {
          os << llvm::formatv("{0:2}", llvm::json::Value(std::move(launches)))
             << "\n";
          return llvm::Error::success();
        })) {
      getOperation().emitError()
          << "cannot write launches: " << llvm::toString(std::move(err));
      return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace mlir::qimeng
