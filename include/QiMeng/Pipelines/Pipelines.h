//===- Pipelines.h - QiMeng's top-level pipelines ---------------*- C++ -*-===//
//
// `--llm-plan` plans every kernel and realizes the plan (micro-coding);
// `--lower-to-nvvm` lowers the result to NVVM and serializes it to PTX/cubin.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PIPELINES_PIPELINES_H
#define QIMENG_PIPELINES_PIPELINES_H

namespace mlir::qimeng {

/// Registers `--llm-plan` and `--lower-to-nvvm` as pass pipelines.
void registerPipelines();

} // namespace mlir::qimeng

#endif // QIMENG_PIPELINES_PIPELINES_H
