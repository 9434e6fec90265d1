//===- Fingerprint.cpp - A stable key of a kernel -------------------------===//

#include "QiMeng/Planner/Fingerprint.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qimeng;

std::string mlir::qimeng::getKernelCanonicalForm(func::FuncOp func) {
  // A detached copy, so renaming and stripping leave `func` alone.
  OwningOpRef<func::FuncOp> copy(cast<func::FuncOp>(func->clone()));
  copy->setSymName("kernel");
  copy->walk(
      [](Operation *op) { op->removeAttr(QiMengDialect::kTagAttrName); });
  std::string text;
  llvm::raw_string_ostream os(text);
  // Generic form (no custom printers' choices), no locations; values are
  // numbered in order, so the input's names do not matter.
  copy->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  return text;
}

std::string mlir::qimeng::getKernelFingerprint(func::FuncOp func) {
  std::string text = getKernelCanonicalForm(func);
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(hash, /*LowerCase=*/true);
}
