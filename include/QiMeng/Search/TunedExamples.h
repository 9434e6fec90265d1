//===- TunedExamples.h - Stored plans shown to the LLM planner --*- C++ -*-===//
//
// In-context learning: the tuning database's fastest plans for the kernels
// nearest to the one being planned (same family, nearest loop sizes, on
// the same GPU and QiMeng version), written as the LLM planner's prompt
// shows them.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SEARCH_TUNEDEXAMPLES_H
#define QIMENG_SEARCH_TUNEDEXAMPLES_H

#include "QiMeng/Planner/LLMPlanner.h"
#include "QiMeng/Search/TuningDB.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir::qimeng {

/// Tuned plans of similar kernels a prompt shows at most.
inline constexpr unsigned kMaxTunedExamples = 3;

/// The examples for `kernel`'s prompt from `db`: the best stored plans of
/// the nearest kernels of its family measured on `gpu` for `chip`. None
/// when the database cannot be read.
std::vector<TunedExample> findTunedExamples(TuningDB &db, func::FuncOp kernel,
                                            llvm::StringRef gpu,
                                            llvm::StringRef chip);

} // namespace mlir::qimeng

#endif // QIMENG_SEARCH_TUNEDEXAMPLES_H
