//===- QiMengInterfaces.h - Macro action interface --------------*- C++ -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_H
#define QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::qimeng {

/// Finds the payload operation with a given `qimeng.tag` in a plan's kernel,
/// or returns null.
using TagLookup = llvm::function_ref<Operation *(llvm::StringRef)>;

/// The JSON shape of one action parameter.
enum class ParamKind { String, Int, IntArray, Enum };

/// One parameter of a macro action. The parameter's JSON key is the name of
/// the op attribute that stores it; the JSON form, the JSON Schema and the
/// JSON importer are all generated from these tables, so they cannot drift.
struct ParamSpec {
  llvm::StringLiteral name;
  ParamKind kind;
  llvm::StringLiteral description;
  /// Optional attribute: absent in IR <=> empty array / default in JSON.
  bool optional = false;
  /// For Int parameters with a default: the value that means "absent".
  int64_t defaultValue = 0;
  /// For Enum parameters: the symbol of each value 0..maxEnumValue (from the
  /// TableGen-generated stringify function of the enum).
  llvm::StringRef (*stringifyEnum)(uint32_t) = nullptr;
  uint32_t maxEnumValue = 0;
};

} // namespace mlir::qimeng

#include "QiMeng/Dialect/QiMeng/IR/QiMengInterfaces.h.inc"

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_H
