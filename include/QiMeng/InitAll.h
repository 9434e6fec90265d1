//===- InitAll.h - Register everything QiMeng tools need --------*- C++ -*-===//

#ifndef QIMENG_INITALL_H
#define QIMENG_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::qimeng {

/// Registers the qimeng dialect and every upstream dialect, extension and
/// translation interface the QiMeng pipeline uses.
void registerAllDialects(DialectRegistry &registry);

/// Registers QiMeng's passes and pipelines (--llm-plan, --lower-to-nvvm, ...)
/// and the upstream passes.
void registerAllPasses();

} // namespace mlir::qimeng

#endif // QIMENG_INITALL_H
