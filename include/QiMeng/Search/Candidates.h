//===- Candidates.h - Plans near the built-in one ---------------*- C++ -*-===//
//
// The search's candidate plans: moves on the JSON form of a kernel's plan
// (a tile size doubled or halved at one level, a vector width changed,
// pipeline stages changed, a promotion dropped), single moves first and
// then pairs, shuffled by a seed. Ops fused into a host move with it.
// Candidates that fail the op verifiers or the resource checks are illegal;
// those the analytic cost model says fill the GPU much worse than the
// default plan are pruned (docs/tuning.md).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SEARCH_CANDIDATES_H
#define QIMENG_SEARCH_CANDIDATES_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::qimeng {

/// One plan to measure.
struct CandidatePlan {
  /// The plan's JSON form.
  llvm::json::Object plan;
  /// "default" (the plan the search started from), "neighbour" or "llm"
  /// (proposed by the LLM planner).
  std::string source;
  /// The moves that made it from the default ("" for the default).
  std::string moves;
  /// The cost model's estimate relative to the default (1 for it).
  double relativeCost = 1;
};

/// Every neighbour of `plan` (the JSON form of a plan): single moves, then
/// pairs of moves, each group in an order shuffled by `seed`, duplicates
/// and the plan itself left out. Pure: the same plan and seed give the same
/// list on every machine.
std::vector<CandidatePlan> generateNeighbours(const llvm::json::Object &plan,
                                              uint64_t seed);

struct CandidateSelection {
  /// The default first, then the legal proposed plans, then legal
  /// neighbours that the cost model keeps, cheapest estimate first:
  /// `maxCandidates` at most.
  std::vector<CandidatePlan> candidates;
  /// Neighbours generated; candidates (proposed or neighbours) that are
  /// illegal or pruned; proposed plans kept.
  unsigned generated = 0, illegal = 0, pruned = 0, proposed = 0;
  /// The first problems of the illegal ones (for reports and tests).
  std::vector<std::string> illegalReasons;
};

/// The cost model: the kernel's estimated time relative to a perfectly
/// filled GPU (>= 1), from each launch's blocks, threads, shared memory and
/// registers against `profile`. Fails when the plan does not verify or fit.
FailureOr<double> estimatePlanCost(PlanOp plan, func::FuncOp kernel,
                                   const TargetProfile &profile,
                                   std::string *problem = nullptr);

/// A neighbour whose estimate is more than this times the default's is
/// pruned.
inline constexpr double kMaxRelativeCost = 2.0;

/// Generates the neighbours of `plan` (of `kernel`), checks each against
/// the kernel and `profile`, prunes with the cost model and keeps up to
/// `maxCandidates` (the default plan included). `proposed` plans (the LLM
/// planner's samples) are checked the same way but not pruned, and go
/// first after the default; a plan equal to one already kept (provenance
/// aside) is left out. Neither op is changed.
CandidateSelection
selectCandidates(PlanOp plan, func::FuncOp kernel, const TargetProfile &profile,
                 unsigned maxCandidates, uint64_t seed,
                 llvm::ArrayRef<CandidatePlan> proposed = {});

/// The family of the kernel's main op (its first matmul or contraction,
/// else its first op that is not a fill) and its features as JSON: per
/// tagged op the family, loop bounds, iterator types and element types.
std::pair<std::string, llvm::json::Value> describeKernel(func::FuncOp kernel);

} // namespace mlir::qimeng

#endif // QIMENG_SEARCH_CANDIDATES_H
