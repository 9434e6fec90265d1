//===- PlanJSON.h - Plans to and from JSON ----------------------*- C++ -*-===//
//
// A plan's JSON form is what an LLM answers in. Conversion is driven by the
// actions' parameter tables (ParamSpec); importing builds the ops and runs the
// same verifiers as textual IR, so JSON is validated exactly like IR.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_IR_PLANJSON_H
#define QIMENG_DIALECT_QIMENG_IR_PLANJSON_H

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::qimeng {

/// Returns the JSON form of one action.
llvm::json::Object actionToJSON(MacroActionOpInterface action);

/// Returns the JSON form of a plan:
/// {"kernel": ..., "provenance": ..., "actions": [...]}.
llvm::json::Object planToJSON(PlanOp plan);

/// The JSON form's text without its provenance: two plans that differ only
/// in who proposed them have the same identity.
std::string getPlanIdentity(const llvm::json::Object &plan);

/// Builds a plan from its JSON form at the builder's insertion point. Checks
/// the JSON's shape (unknown or missing keys, wrong types, unknown actions or
/// enum symbols) and then runs the op verifiers, including the checks against
/// the kernel when `verifyAgainstKernel` is set and the module holds the
/// kernel. Errors are emitted at `loc`, naming the JSON path
/// (e.g. "actions[2].sizes"). On failure nothing is left in the IR.
FailureOr<PlanOp> planFromJSON(OpBuilder &builder, Location loc,
                               const llvm::json::Value &json,
                               bool verifyAgainstKernel = true);

/// Parses `text` as JSON and calls planFromJSON.
FailureOr<PlanOp> planFromJSONText(OpBuilder &builder, Location loc,
                                   llvm::StringRef text,
                                   bool verifyAgainstKernel = true);

/// Returns the JSON Schema of a plan, in the strict style that
/// structured-output LLM APIs accept: every object lists all its properties as
/// required and sets additionalProperties to false.
llvm::json::Object getPlanJSONSchema(MLIRContext *context);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_IR_PLANJSON_H
