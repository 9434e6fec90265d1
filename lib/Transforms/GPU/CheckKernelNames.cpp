//===- CheckKernelNames.cpp - Kernel module symbols that PTX can name -----===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGCHECKKERNELNAMESPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// Whether `name` is a PTX identifier: [a-zA-Z][a-zA-Z0-9_$]* or
/// [_$%][a-zA-Z0-9_$]+.
bool isPTXIdentifier(llvm::StringRef name) {
  if (name.empty())
    return false;
  auto follows = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  char first = name.front();
  if (llvm::isAlpha(first))
    return llvm::all_of(name.drop_front(), follows);
  if (first == '_' || first == '$' || first == '%')
    return name.size() > 1 && llvm::all_of(name.drop_front(), follows);
  return false;
}

class QiMengCheckKernelNamesPass
    : public impl::QiMengCheckKernelNamesPassBase<QiMengCheckKernelNamesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      for (Operation &op : module.getBody()->getOperations()) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol || isPTXIdentifier(symbol.getName()))
          continue;
        std::string name;
        llvm::raw_string_ostream os(name);
        llvm::printEscapedString(symbol.getName(), os);
        op.emitError() << "kernel module symbol '" << name
                       << "' cannot be a PTX name (a letter, or '_' or '$' "
                          "followed by more; then letters, digits, '_' and "
                          "'$'): rename the function it comes from";
        failed = true;
      }
    });
    if (failed)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::qimeng
