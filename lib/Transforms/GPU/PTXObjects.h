//===- PTXObjects.h - The PTX held by gpu.binary ops ------------*- C++ -*-===//
//
// Internal to the transforms library: the passes that read the PTX that
// --lower-to-nvvm serialized (dump it, check it) walk it the same way.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_DIALECT_QIMENG_TRANSFORMS_PTXOBJECTS_H
#define QIMENG_LIB_DIALECT_QIMENG_TRANSFORMS_PTXOBJECTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::qimeng {

/// Calls `fn` with every PTX (format `isa`) object of every gpu.binary in
/// `module`, in order; stops when `fn` interrupts.
inline WalkResult walkPTXObjects(
    ModuleOp module,
    llvm::function_ref<WalkResult(gpu::BinaryOp, llvm::StringRef)> fn) {
  return module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      if (fn(binary, object.getObject().getValue()).wasInterrupted())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
}

} // namespace mlir::qimeng

#endif // QIMENG_LIB_DIALECT_QIMENG_TRANSFORMS_PTXOBJECTS_H
