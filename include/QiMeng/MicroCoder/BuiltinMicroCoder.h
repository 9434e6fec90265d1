//===- BuiltinMicroCoder.h - Actions to transform scripts -------*- C++ -*-===//
//
// The built-in micro-coder turns the macro actions of a plan into a
// transform-dialect script (a few upstream transform ops per action) that the
// transform interpreter applies to the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_MICROCODER_BUILTINMICROCODER_H
#define QIMENG_MICROCODER_BUILTINMICROCODER_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::qimeng {

/// A pipeline action and the name of the serial loop it pipelines.
struct PipelineStep {
  PipelineOp op;
  std::string loop;
};

/// Entry point of a script: with every action applied, it runs the three
/// sequences below with QiMeng's own steps between them
/// (`transform.qimeng.convert_to_mma_sync` on the launch of each mma target,
/// `distribute_over_lanes` on each other target tiled to warps,
/// `hoist_stage_buffers` and `check_pipelinable` on each pipelined loop), so
/// one script realizes the whole plan; with only the first `steps` actions,
/// it is those actions alone.
inline constexpr llvm::StringLiteral kRealizeSequence = "__qimeng_realize";
/// The actions and the mapping of the loops to gpu.launch.
inline constexpr llvm::StringLiteral kMapSequence = "__qimeng_map";
/// Multi-buffering and asynchronous copies for pipelined loops, and the
/// lowering of vectors to 1-D.
inline constexpr llvm::StringLiteral kLowerSequence = "__qimeng_lower";
/// Software pipelining, and shared buffers as globals.
inline constexpr llvm::StringLiteral kPipelineSequence = "__qimeng_pipeline";

/// A transform script that realizes a plan, and what to check after it ran.
struct BuiltinScript {
  /// A module holding the named sequences above, as text.
  std::string text;
  /// The unroll actions it applies: each names a loop that must still exist.
  SmallVector<UnrollOp> unrolls;
};

/// Attribute naming the serial loops that reduction tiles make.
inline constexpr llvm::StringLiteral kLoopNameAttr = "qimeng.loop";

/// Name of the serial loop a reduction tile of `tag` makes for loop `dim`.
std::string getLoopName(llvm::StringRef tag, int64_t dim);

/// Builds the script that realizes `plan` on `kernel` (on memrefs); it is
/// applied with `kernel` as the payload root. With
/// `steps` >= 0 only the first `steps` actions are applied and nothing is
/// mapped to the GPU; with `steps` < 0 every action is applied, the loops are
/// mapped to gpu.launch and vectors are lowered to 1-D. Emits an error on the
/// offending action (or the plan) and fails when an action cannot be
/// realized.
FailureOr<BuiltinScript> buildBuiltinScript(PlanOp plan, func::FuncOp kernel,
                                            int steps);

} // namespace mlir::qimeng

#endif // QIMENG_MICROCODER_BUILTINMICROCODER_H
