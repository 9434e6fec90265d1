//===- PlanJSON.cpp - Plans to and from JSON ------------------------------===//
//
// Everything here is driven by the actions' ParamSpec tables: one table per
// action gives the JSON form, the importer and the JSON Schema.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;
namespace json = llvm::json;

/// Returns the registered action ops of the qimeng dialect, in a stable order.
static SmallVector<RegisteredOperationName> getActionOps(MLIRContext *ctx) {
  ctx->getOrLoadDialect<QiMengDialect>();
  SmallVector<RegisteredOperationName> actions;
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    if (name.getDialectNamespace() == QiMengDialect::getDialectNamespace() &&
        name.hasInterface<MacroActionOpInterface>())
      actions.push_back(name);
  return actions;
}

static StringRef getActionName(RegisteredOperationName name) {
  return name.getStringRef().drop_front(
      QiMengDialect::getDialectNamespace().size() + 1);
}

static ArrayRef<ParamSpec> getSpecs(RegisteredOperationName name) {
  return name.getInterface<MacroActionOpInterface>()->getParamSpecs();
}

//===----------------------------------------------------------------------===//
// IR -> JSON
//===----------------------------------------------------------------------===//

json::Object mlir::qimeng::actionToJSON(MacroActionOpInterface action) {
  Operation *op = action;
  json::Object obj;
  obj["action"] = op->getName().getStringRef().drop_front(
      QiMengDialect::getDialectNamespace().size() + 1);
  for (const ParamSpec &spec : action.getParamSpecs()) {
    Attribute attr = op->getAttr(spec.name);
    switch (spec.kind) {
    case ParamKind::String:
      obj[spec.name] = cast<StringAttr>(attr).getValue();
      break;
    case ParamKind::Int:
      obj[spec.name] =
          attr ? cast<IntegerAttr>(attr).getInt() : spec.defaultValue;
      break;
    case ParamKind::IntArray: {
      json::Array values;
      if (attr)
        for (int64_t v : cast<DenseI64ArrayAttr>(attr).asArrayRef())
          values.push_back(v);
      obj[spec.name] = std::move(values);
      break;
    }
    case ParamKind::Enum:
      obj[spec.name] = spec.stringifyEnum(
          static_cast<uint32_t>(cast<IntegerAttr>(attr).getInt()));
      break;
    }
  }
  return obj;
}

std::string mlir::qimeng::getPlanIdentity(const json::Object &plan) {
  json::Object bare = plan;
  bare.erase("provenance");
  return llvm::formatv("{0}", json::Value(std::move(bare))).str();
}

json::Object mlir::qimeng::planToJSON(PlanOp plan) {
  json::Array actions;
  for (MacroActionOpInterface action : plan.getActions())
    actions.push_back(actionToJSON(action));
  return json::Object{{"kernel", plan.getKernel()},
                      {"provenance", plan.getProvenance()},
                      {"actions", std::move(actions)}};
}

//===----------------------------------------------------------------------===//
// JSON -> IR
//===----------------------------------------------------------------------===//

namespace {
/// Reads the JSON form of a plan, reporting the first error with its path.
class PlanReader {
public:
  PlanReader(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  FailureOr<PlanOp> read(const json::Value &json);

private:
  InFlightDiagnostic error(const Twine &path) {
    return emitError(loc) << "invalid plan JSON at '" << path << "': ";
  }
  LogicalResult checkKeys(const json::Object &obj, const Twine &path,
                          ArrayRef<StringRef> allowed);
  FailureOr<Attribute> readParam(const json::Value &value,
                                 const ParamSpec &spec, const Twine &path);
  LogicalResult readAction(const json::Value &value, unsigned index);

  OpBuilder &builder;
  Location loc;
};
} // namespace

LogicalResult PlanReader::checkKeys(const json::Object &obj, const Twine &path,
                                    ArrayRef<StringRef> allowed) {
  for (const auto &kv : obj)
    if (!llvm::is_contained(allowed, StringRef(kv.first)))
      return error(path) << "unknown key '" << kv.first.str() << "'";
  return success();
}

FailureOr<Attribute> PlanReader::readParam(const json::Value &value,
                                           const ParamSpec &spec,
                                           const Twine &path) {
  switch (spec.kind) {
  case ParamKind::String:
    if (std::optional<StringRef> s = value.getAsString())
      return Attribute(builder.getStringAttr(*s));
    return error(path) << "expected a string";
  case ParamKind::Int:
    if (std::optional<int64_t> i = value.getAsInteger())
      return Attribute(builder.getI64IntegerAttr(*i));
    return error(path) << "expected an integer";
  case ParamKind::IntArray: {
    const json::Array *array = value.getAsArray();
    if (!array)
      return error(path) << "expected an array of integers";
    SmallVector<int64_t> values;
    for (const json::Value &element : *array) {
      std::optional<int64_t> i = element.getAsInteger();
      if (!i)
        return error(path) << "expected an array of integers";
      values.push_back(*i);
    }
    if (values.empty() && spec.optional)
      return Attribute();
    return Attribute(builder.getDenseI64ArrayAttr(values));
  }
  case ParamKind::Enum: {
    std::optional<StringRef> s = value.getAsString();
    std::string expected;
    for (uint32_t v = 0; v <= spec.maxEnumValue; ++v) {
      if (s && spec.stringifyEnum(v) == *s)
        return Attribute(builder.getI32IntegerAttr(v));
      expected += (v ? ", " : "") + spec.stringifyEnum(v).str();
    }
    return error(path) << "expected one of " << expected;
  }
  }
  llvm_unreachable("unknown parameter kind");
}

LogicalResult PlanReader::readAction(const json::Value &value, unsigned index) {
  std::string path = ("actions[" + Twine(index) + "]").str();
  const json::Object *obj = value.getAsObject();
  if (!obj)
    return error(path) << "expected an object";
  std::optional<StringRef> name = obj->getString("action");
  if (!name)
    return error(path + ".action") << "expected the action's name";

  MLIRContext *ctx = builder.getContext();
  SmallVector<RegisteredOperationName> actionOps = getActionOps(ctx);
  const RegisteredOperationName *opName =
      llvm::find_if(actionOps, [&](RegisteredOperationName n) {
        return getActionName(n) == *name;
      });
  if (opName == actionOps.end()) {
    InFlightDiagnostic diag = error(path + ".action")
                              << "unknown action '" << *name
                              << "'; expected one of ";
    llvm::interleaveComma(actionOps, diag, [&](RegisteredOperationName n) {
      diag << getActionName(n);
    });
    return diag;
  }

  ArrayRef<ParamSpec> specs = getSpecs(*opName);
  SmallVector<StringRef> allowed = {"action"};
  for (const ParamSpec &spec : specs)
    allowed.push_back(spec.name);
  if (failed(checkKeys(*obj, path, allowed)))
    return failure();

  OperationState state(NameLoc::get(builder.getStringAttr(path), loc), *opName);
  for (const ParamSpec &spec : specs) {
    std::string paramPath = path + "." + spec.name.str();
    const json::Value *param = obj->get(spec.name);
    if (!param) {
      if (spec.optional)
        continue;
      return error(paramPath) << "missing required parameter";
    }
    FailureOr<Attribute> attr = readParam(*param, spec, paramPath);
    if (failed(attr))
      return failure();
    bool isDefault = spec.optional && spec.kind == ParamKind::Int &&
                     cast<IntegerAttr>(*attr).getInt() == spec.defaultValue;
    if (*attr && !isDefault)
      state.addAttribute(spec.name, *attr);
  }
  builder.create(state);
  return success();
}

FailureOr<PlanOp> PlanReader::read(const json::Value &json) {
  const json::Object *obj = json.getAsObject();
  if (!obj)
    return error("$") << "expected an object";
  if (failed(checkKeys(*obj, "$", {"kernel", "provenance", "actions"})))
    return failure();
  std::optional<StringRef> kernel = obj->getString("kernel");
  if (!kernel || kernel->empty())
    return error("kernel") << "expected the kernel function's name";
  std::optional<StringRef> provenance = obj->getString("provenance");
  if (!provenance)
    return error("provenance") << "expected a string";
  const json::Array *actions = obj->getArray("actions");
  if (!actions)
    return error("actions") << "expected an array of actions";

  auto plan = PlanOp::create(builder, loc, *kernel, *provenance);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&plan.getBody().front());
  for (auto [index, action] : llvm::enumerate(*actions)) {
    if (failed(readAction(action, index))) {
      plan->erase();
      return failure();
    }
  }
  return plan;
}

/// Verifies a freshly built plan; diagnostics on its actions are re-emitted
/// at `loc` with the JSON path of the action, so a caller (or an LLM) learns
/// which element was wrong.
static LogicalResult verifyImportedPlan(PlanOp plan, Location loc,
                                        bool verifyAgainstKernel) {
  SmallVector<std::pair<std::string, std::string>> errors;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(
        plan->getContext(), [&](Diagnostic &diag) -> LogicalResult {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return success();
          std::string where = "$";
          if (auto nameLoc = dyn_cast<NameLoc>(diag.getLocation()))
            where = nameLoc.getName().str();
          errors.emplace_back(where, diag.str());
          return success();
        });
    result = verify(plan);
    if (succeeded(result) && verifyAgainstKernel) {
      SymbolTableCollection symbolTable;
      result = plan.verifySymbolUses(symbolTable);
    }
  }
  for (auto &[where, message] : errors)
    emitError(loc) << "invalid plan JSON at '" << where << "': " << message;
  return result;
}

FailureOr<PlanOp> mlir::qimeng::planFromJSON(OpBuilder &builder, Location loc,
                                             const json::Value &json,
                                             bool verifyAgainstKernel) {
  PlanReader reader(builder, loc);
  FailureOr<PlanOp> plan = reader.read(json);
  if (failed(plan))
    return failure();
  if (failed(verifyImportedPlan(*plan, loc, verifyAgainstKernel))) {
    (*plan)->erase();
    return failure();
  }
  return plan;
}

FailureOr<PlanOp> mlir::qimeng::planFromJSONText(OpBuilder &builder,
                                                 Location loc, StringRef text,
                                                 bool verifyAgainstKernel) {
  llvm::Expected<json::Value> json = json::parse(text);
  if (!json)
    return emitError(loc) << "plan is not valid JSON: "
                          << llvm::toString(json.takeError());
  return planFromJSON(builder, loc, *json, verifyAgainstKernel);
}

//===----------------------------------------------------------------------===//
// JSON Schema
//===----------------------------------------------------------------------===//

static json::Object paramSchema(const ParamSpec &spec) {
  json::Object schema;
  switch (spec.kind) {
  case ParamKind::String:
    schema["type"] = "string";
    break;
  case ParamKind::Int:
    schema["type"] = "integer";
    break;
  case ParamKind::IntArray:
    schema["type"] = "array";
    schema["items"] = json::Object{{"type", "integer"}};
    break;
  case ParamKind::Enum: {
    json::Array symbols;
    for (uint32_t v = 0; v <= spec.maxEnumValue; ++v)
      symbols.push_back(spec.stringifyEnum(v));
    schema["type"] = "string";
    schema["enum"] = std::move(symbols);
    break;
  }
  }
  schema["description"] = spec.description;
  return schema;
}

/// A strict-mode object schema: all properties required, nothing else.
static json::Object strictObject(json::Object properties) {
  json::Array required;
  for (const auto &kv : properties)
    required.push_back(kv.first.str());
  // json::Object iterates in hash order; sort for a stable schema text.
  llvm::sort(required, [](const json::Value &a, const json::Value &b) {
    return *a.getAsString() < *b.getAsString();
  });
  return json::Object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
}

json::Object mlir::qimeng::getPlanJSONSchema(MLIRContext *context) {
  json::Array variants;
  for (RegisteredOperationName name : getActionOps(context)) {
    json::Object properties;
    properties["action"] = json::Object{
        {"type", "string"}, {"enum", json::Array{getActionName(name)}}};
    for (const ParamSpec &spec : getSpecs(name))
      properties[spec.name] = paramSchema(spec);
    variants.push_back(strictObject(std::move(properties)));
  }
  json::Object properties;
  properties["kernel"] =
      json::Object{{"type", "string"},
                   {"description", "name of the kernel function, without '@'"}};
  properties["provenance"] =
      json::Object{{"type", "string"},
                   {"description", "'builtin', 'tuned' or 'llm:<model>'"}};
  properties["actions"] = json::Object{
      {"type", "array"},
      {"description", "macro actions, in the order they are applied"},
      {"items", json::Object{{"anyOf", std::move(variants)}}}};
  json::Object schema = strictObject(std::move(properties));
  schema["title"] = "QiMeng plan";
  return schema;
}
