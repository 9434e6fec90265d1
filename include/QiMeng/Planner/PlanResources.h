//===- PlanResources.h - Does a plan fit the GPU? ---------------*- C++ -*-===//
//
// The checks a plan gets beyond its op verifiers, against the target
// profile: threads per block, shared memory per block (promoted tiles times
// pipeline stages), an estimate of registers per thread, block tiles
// against the loops' extents, and thread (or warp) tiles that divide their
// block tiles. LLM plans are checked with it before they are
// accepted; each problem is a sentence the planner can be sent back.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_PLANRESOURCES_H
#define QIMENG_PLANNER_PLANRESOURCES_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace mlir::qimeng {

/// Registers per thread the estimate allows.
inline constexpr int64_t kMaxRegistersPerThread = 255;

/// What `plan` would use per block of each target.
struct TargetResources {
  std::string target;
  int64_t threadsPerBlock = 1;
  int64_t sharedBytes = 0;
  int64_t registersPerThread = 0;
};

/// The resources of every target of `plan` on `kernel`, and the problems
/// found (empty when the plan fits `profile`).
std::vector<std::string>
checkPlanResources(PlanOp plan, func::FuncOp kernel,
                   const TargetProfile &profile,
                   std::vector<TargetResources> *resources = nullptr);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_PLANRESOURCES_H
