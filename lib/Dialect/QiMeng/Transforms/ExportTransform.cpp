//===- ExportTransform.cpp - Plans as transform scripts for other tools ---===//
//
// Writes the transform-dialect operations the built-in micro-coder applies
// for each plan (lib/MicroCoder) as a script upstream mlir-opt
// --transform-interpreter applies to the original input (docs/tuning.md;
// IREE's tuning-spec form: ExportIREESpec.cpp).
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/MicroCoder/BuiltinMicroCoder.h"
#include "QiMeng/Support/WriteFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGEXPORTTRANSFORMPASS
#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h.inc"

namespace {

/// The sequences of a built-in script and what the exported name of each
/// is (`@<kernel>__<suffix>`).
constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral> kSequences[] = {
    {kMapSequence, "map"},
    {kLowerSequence, "lower"},
    {kPipelineSequence, "pipeline"},
    {kRealizeSequence, "realize"}};

/// One kernel's part of the export.
struct KernelExport {
  std::string name;
  /// The plan's sequences, renamed after the kernel: `@<kernel>__realize`
  /// realizes the whole plan (it includes the others).
  std::string sequences;
  /// The kernel's linalg ops in order: name and tag.
  struct Root {
    std::string name, tag;
  };
  SmallVector<Root> roots;
};

std::string quoted(StringRef text) {
  std::string s = "\"";
  llvm::raw_string_ostream os(s);
  llvm::printEscapedString(text, os);
  return s + "\"";
}

/// `count` transform handle types, comma separated.
std::string handleTypes(size_t count) {
  SmallVector<std::string> types(count, "!transform.any_op");
  return llvm::join(types, ", ");
}

/// Binds `names` to the payload ops of `source`, one each: a cast for one,
/// a split_handle for more.
void emitSplit(llvm::raw_ostream &os, StringRef source,
               ArrayRef<std::string> names) {
  if (names.size() == 1) {
    os << llvm::formatv("    {0} = transform.cast {1} : !transform.any_op to "
                        "!transform.any_op\n",
                        names.front(), source);
    return;
  }
  os << llvm::formatv("    {0} = transform.split_handle {1} : "
                      "(!transform.any_op) -> ({2})\n",
                      llvm::join(names, ", "), source,
                      handleTypes(names.size()));
}

/// Matches the linalg ops of the function `func` (a handle) against the
/// planned ones: their count, then each op's name. The handles are named
/// after the kernel (%ops_<kernel>, %count_<kernel>) and the roots
/// `%root_<kernel>_<i>`, which are returned. The script fails on an input
/// that is not the one planned.
SmallVector<std::string> emitRootMatch(llvm::raw_ostream &os,
                                       const KernelExport &k, StringRef func) {
  std::string suffix = "_" + k.name;
  std::string rootPrefix = "%root_" + k.name + "_";
  os << llvm::formatv("    %ops{0} = transform.structured.match "
                      "interface{{LinalgOp} in {1} : (!transform.any_op) -> "
                      "!transform.any_op\n",
                      suffix, func);
  // A failure here: the input's linalg ops are not the planned ones (was the
  // kernel rewritten by qimeng-prepare or qimeng-split-reductions: softmax,
  // padding, fused chains, split reductions or split-K?).
  os << llvm::formatv("    // @{0} must hold {1} linalg op(s): the planned "
                      "ones, not rewritten by qimeng-prepare or "
                      "qimeng-split-reductions\n"
                      "    %count{2} = transform.num_associations %ops{2} : "
                      "(!transform.any_op) -> !transform.param<i64>\n"
                      "    %expected{2} = transform.param.constant {1} : i64 "
                      "-> !transform.param<i64>\n"
                      "    transform.match.param.cmpi eq %count{2}, "
                      "%expected{2} : !transform.param<i64>\n",
                      k.name, k.roots.size(), suffix);
  SmallVector<std::string> names;
  for (size_t i = 0; i < k.roots.size(); ++i)
    names.push_back(rootPrefix + std::to_string(i));
  emitSplit(os, "%ops" + suffix, names);
  for (auto [name, root] : llvm::zip(names, k.roots))
    os << llvm::formatv("    transform.match.operation_name {0} [{1}] : "
                        "!transform.any_op\n",
                        name, quoted(root.name));
  return names;
}

/// Tags the linalg ops of the function `func` (a handle) as the planner
/// did, after emitRootMatch's checks.
std::string emitTagging(const KernelExport &k, StringRef func) {
  std::string out;
  llvm::raw_string_ostream os(out);
  SmallVector<std::string> names = emitRootMatch(os, k, func);
  for (auto [i, root] : llvm::enumerate(k.roots))
    os << llvm::formatv("    %tag_{0}_{1} = transform.param.constant {2} -> "
                        "!transform.any_param\n"
                        "    transform.annotate {3} \"{4}\" = %tag_{0}_{1} : "
                        "!transform.any_op, !transform.any_param\n",
                        k.name, i, quoted(root.tag), names[i],
                        QiMengDialect::kTagAttrName);
  return out;
}

/// The mlir-opt form: bufferize the module like --llm-plan, then per kernel
/// tag, realize and clean up.
std::string emitInterpreterScript(ArrayRef<KernelExport> kernels) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// QiMeng's plans as a transform script (qimeng-opt "
        "--qimeng-export-transform).\n"
        "// Apply to the original input:\n"
        "//   mlir-opt in.mlir --transform-preload-library="
        "transform-library-paths=THIS_FILE \\\n"
        "//     --transform-interpreter=disable-expensive-checks\n"
        "module attributes {transform.with_named_sequence} {\n";
  for (const KernelExport &k : kernels)
    os << k.sequences;
  os << "  transform.named_sequence @__transform_main("
        "%root: !transform.any_op {transform.consumed}) {\n"
        "    %module = transform.bufferization.one_shot_bufferize "
        "layout{IdentityLayoutMap} %root {bufferize_function_boundaries = "
        "true} : (!transform.any_op) -> !transform.any_op\n";
  for (const KernelExport &k : kernels) {
    os << llvm::formatv("    %func_{0} = transform.structured.match "
                        "ops{{[\"func.func\"]} attributes {{sym_name = {1}} "
                        "in %module : (!transform.any_op) -> "
                        "!transform.any_op\n"
                        "    transform.apply_patterns to %func_{0} {{\n"
                        "      transform.apply_patterns.canonicalization\n"
                        "    } : !transform.any_op\n",
                        k.name, quoted(k.name));
    os << emitTagging(k, "%func_" + k.name);
    os << llvm::formatv("    transform.include @{0}__realize "
                        "failures(propagate) (%func_{0}) : (!transform.any_op) "
                        "-> ()\n",
                        k.name);
    os << llvm::formatv("    transform.apply_patterns to %func_{0} {{\n"
                        "      transform.apply_patterns.canonicalization\n"
                        "    } : !transform.any_op\n"
                        "    transform.apply_cse to %func_{0} : "
                        "!transform.any_op\n",
                        k.name);
  }
  os << "    transform.yield\n  }\n}\n";
  return out;
}

class QiMengExportTransformPass
    : public impl::QiMengExportTransformPassBase<QiMengExportTransformPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelExport> kernels;
    for (PlanOp plan : module.getOps<PlanOp>()) {
      FailureOr<KernelExport> exported = exportKernel(module, plan);
      if (failed(exported))
        return signalPassFailure();
      kernels.push_back(std::move(*exported));
    }
    if (output.empty())
      return;
    std::string script = emitInterpreterScript(kernels);
    if (failed(writeTextFile(module, output, script)))
      return signalPassFailure();
  }

private:
  FailureOr<KernelExport> exportKernel(ModuleOp module, PlanOp plan) {
    auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
    if (!kernel)
      return plan.emitOpError() << "names no function of the module";
    for (Type type : kernel.getArgumentTypes())
      if (isa<TensorType>(type))
        return plan.emitOpError()
               << "cannot be exported before bufferization: @"
               << plan.getKernel() << " is on tensors";
    KernelExport k;
    k.name = kernel.getSymName().str();
    kernel.walk([&](linalg::LinalgOp op) {
      auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
      k.roots.push_back({op->getName().getStringRef().str(),
                         tag ? tag.getValue().str() : ""});
    });
    FailureOr<BuiltinScript> script = buildBuiltinScript(plan, kernel, -1);
    if (failed(script))
      return failure();
    // The sequences, renamed after the kernel (the entry's includes with
    // them).
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(script->text, module.getContext());
    if (!parsed)
      return plan.emitOpError() << "internal error: the built-in script does "
                                   "not parse";
    SymbolTable symbols(*parsed);
    for (auto [name, suffix] : kSequences)
      if (Operation *sequence = symbols.lookup(name))
        if (failed(symbols.rename(sequence, k.name + "__" + suffix.str())))
          return plan.emitOpError()
                 << "internal error: cannot rename sequence @" << name;
    llvm::raw_string_ostream os(k.sequences);
    for (auto sequence : parsed->getOps<transform::NamedSequenceOp>()) {
      os << "  ";
      sequence->print(os, OpPrintingFlags().enableDebugInfo(false));
      os << "\n";
    }
    return k;
  }
};

} // namespace
} // namespace mlir::qimeng
