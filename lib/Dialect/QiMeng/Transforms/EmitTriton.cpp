//===- EmitTriton.cpp - Write each planned kernel as a Triton module ------===//
//
// For every kernel with a plan, writes `<dir>/<kernel>.py`: a @triton.jit
// kernel realizing the plan and a launcher on torch tensors
// (lib/Triton, docs/triton.md), and `<dir>/manifest.json`: which kernels
// were written, by whom, and why the others were not. With
// --micro-coder=llm-triton the LLM writes each module, verified before it
// is taken (TritonMicroCoder.h).
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Support/WriteFile.h"
#include "QiMeng/Triton/TritonEmitter.h"
#include "QiMeng/Triton/TritonMicroCoder.h"

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
    CompileSession &session = CompileSession::get();
    const CompileOptions &settings = session.getOptions();
    triton::TritonCoderOptions coder;
    if (session.useLLMTritonCoder()) {
      coder.client = session.getClient();
      coder.rounds = settings.codeRounds;
      coder.python = settings.tritonPython;
      coder.allowUnverified = settings.allowUnverified;
      coder.requireGpuVerification = settings.requireGpuVerification;
      coder.progress = [&](const Twine &line) { session.progress(line); };
    }
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
      std::string source = emitted->source, writtenBy = "builtin";
      if (coder.client) {
        nlohmann::json report;
        FailureOr<std::string> coded = triton::microCodeTriton(
            kernel, plan, emitted->source, coder, report);
        writtenBy = report.value("result", "builtin");
        {
          std::lock_guard<std::mutex> lock(session.getMutex());
          session.kernelReport(kernel.getSymName())["triton_micro_coding"] =
              report;
        }
        if (failed(coded))
          return signalPassFailure();
        source = std::move(*coded);
      }
      std::string stem = fileStem(kernel.getSymName());
      while (!stems.insert(stem).second)
        stem += "_";
      SmallString<128> path(outputDir);
      llvm::sys::path::append(path, stem + ".py");
      if (failed(writeTextFile(module, path, source)))
        return signalPassFailure();
      written.push_back(llvm::json::Object{
          {"kernel", kernel.getSymName()},
          {"file", stem + ".py"},
          {"written_by", writtenBy},
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
