//===- QiMengDialect.cpp - QiMeng dialect ---------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"

using namespace mlir;
using namespace mlir::qimeng;

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.cpp.inc"

void QiMengDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.cpp.inc"
      >();
}
