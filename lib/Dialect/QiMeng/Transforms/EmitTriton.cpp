//===- EmitTriton.cpp - Write each planned kernel as a Triton module ------===//
//
// For every kernel with a plan, writes `<dir>/<kernel>.py`: a @triton.jit
// kernel realizing the plan and a launcher on torch tensors
// (lib/Triton, docs/triton.md), and `<dir>/manifest.json`: which kernels
// were written, and why the others were not.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Support/WriteFile.h"
#include "QiMeng/Triton/TritonEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGEMITTRITONPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// A file name for a kernel: its name with anything but letters, digits
/// and `_` replaced by `_`.
std::string fileStem(StringRef kernel) {
  std::string stem;
  for (char c : kernel)
    stem += llvm::isAlnum(c) || c == '_' ? c : '_';
  return stem.empty() ? "kernel" : stem;
}

class QiMengEmitTritonPass
    : public impl::QiMengEmitTritonPassBase<QiMengEmitTritonPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError() << "cannot create " << outputDir << ": "
                         << ec.message();
      return signalPassFailure();
    }
    llvm::json::Array written, skipped;
    llvm::StringSet<> stems;
    for (PlanOp plan : module.getOps<PlanOp>()) {
      auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
      if (!kernel) {
        plan.emitOpError() << "names no function of the module";
        return signalPassFailure();
      }
      std::string why;
      FailureOr<triton::TritonModule> emitted =
          triton::emitTritonModule(kernel, plan, why);
      if (failed(emitted)) {
        plan.emitWarning() << "@" << kernel.getSymName()
                           << " is not emitted to Triton: " << why;
        skipped.push_back(llvm::json::Object{{"kernel", kernel.getSymName()},
                                             {"reason", why}});
        continue;
      }
      std::string stem = fileStem(kernel.getSymName());
      while (!stems.insert(stem).second)
        stem += "_";
      SmallString<128> path(outputDir);
      llvm::sys::path::append(path, stem + ".py");
      if (failed(writeTextFile(module, path, emitted->source)))
        return signalPassFailure();
      written.push_back(llvm::json::Object{
          {"kernel", kernel.getSymName()},
          {"file", stem + ".py"},
          {"form",
           emitted->form == triton::KernelForm::Matmul ? "matmul" : "rows"}});
    }
    SmallString<128> manifest(outputDir);
    llvm::sys::path::append(manifest, "manifest.json");
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"kernels", std::move(written)},
                                     {"skipped", std::move(skipped)}}))
       << "\n";
    if (failed(writeTextFile(module, manifest, text)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::qimeng
