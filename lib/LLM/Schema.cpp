//===- Schema.cpp - Checking LLM replies against a JSON schema ------------===//

#include "QiMeng/LLM/Schema.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir::qimeng::llm;
using nlohmann::json;

/// `token` escaped for a JSON pointer (RFC 6901).
static std::string escapePointer(llvm::StringRef token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

/// The JSON Schema type name of `value`.
static const char *typeName(const json &value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "boolean";
  case json::value_t::object:
    return "object";
  case json::value_t::array:
    return "array";
  case json::value_t::string:
    return "string";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "integer";
  default:
    return "number";
  }
}

static bool hasType(const json &value, llvm::StringRef type) {
  if (type == "integer")
    return value.is_number_integer() ||
           (value.is_number_float() &&
            std::trunc(value.get<double>()) == value.get<double>());
  if (type == "number")
    return value.is_number();
  return type == typeName(value);
}

/// "a string", "an integer", ... for messages.
static std::string article(llvm::StringRef type) {
  bool vowel = !type.empty() && llvm::StringRef("aeiou").contains(type[0]);
  return (vowel ? "an " : "a ") + type.str();
}

static std::string shortDump(const json &value) {
  std::string text = mlir::qimeng::dumpJSON(value);
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  return text;
}

namespace {

class Validator {
public:
  Validator(const json &root, size_t limit) : root(root), limit(limit) {}

  void check(const json &schema, const json &value, const std::string &at) {
    if (problems.size() >= limit)
      return;
    if (schema.is_boolean()) {
      if (!schema.get<bool>())
        report(at, "no value is allowed here");
      return;
    }
    if (!schema.is_object())
      return;
    if (auto ref = schema.find("$ref"); ref != schema.end()) {
      if (const json *target = resolve(*ref))
        check(*target, value, at);
      else
        report(at,
               "the schema's $ref " + shortDump(*ref) + " does not resolve");
    }
    if (auto type = schema.find("type"); type != schema.end()) {
      std::vector<std::string> allowed;
      if (type->is_string())
        allowed.push_back(type->get<std::string>());
      else if (type->is_array())
        for (const json &t : *type)
          if (t.is_string())
            allowed.push_back(t.get<std::string>());
      bool ok = llvm::any_of(
          allowed, [&](const std::string &t) { return hasType(value, t); });
      if (!ok) {
        std::string expected;
        for (const std::string &t : allowed)
          expected += (expected.empty() ? "" : " or ") + article(t);
        report(at,
               "expected " + expected + ", got " + article(typeName(value)));
        return; // the other keywords would only repeat it
      }
    }
    if (auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
      if (llvm::none_of(*e,
                        [&](const json &option) { return option == value; }))
        report(at, shortDump(value) + " is not one of " + shortDump(*e));
    }
    if (auto c = schema.find("const"); c != schema.end() && *c != value)
      report(at, "expected " + shortDump(*c) + ", got " + shortDump(value));
    if (value.is_number())
      checkNumber(schema, value, at);
    if (value.is_string())
      checkLength(schema, value.get<std::string>().size(), "minLength",
                  "maxLength", "characters", at);
    if (value.is_array())
      checkArray(schema, value, at);
    if (value.is_object())
      checkObject(schema, value, at);
    checkCombinations(schema, value, at);
  }

  std::vector<std::string> problems;

private:
  void report(const std::string &at, const std::string &what) {
    if (problems.size() < limit)
      problems.push_back((at.empty() ? std::string("/") : at) + ": " + what);
  }

  const json *resolve(const json &ref) const {
    if (!ref.is_string())
      return nullptr;
    llvm::StringRef path(ref.get_ref<const std::string &>());
    if (!path.consume_front("#"))
      return nullptr;
    const json *node = &root;
    if (path.empty())
      return node;
    if (!path.consume_front("/"))
      return nullptr;
    llvm::SmallVector<llvm::StringRef> tokens;
    path.split(tokens, '/');
    for (llvm::StringRef token : tokens) {
      std::string key = token.str();
      for (size_t i; (i = key.find("~1")) != std::string::npos;)
        key.replace(i, 2, "/");
      for (size_t i; (i = key.find("~0")) != std::string::npos;)
        key.replace(i, 2, "~");
      if (!node->is_object())
        return nullptr;
      auto it = node->find(key);
      if (it == node->end())
        return nullptr;
      node = &*it;
    }
    return node;
  }

  void checkNumber(const json &schema, const json &value,
                   const std::string &at) {
    double number = value.get<double>();
    // Each bound that `number` breaks (`inside` says where it must lie).
    auto check = [&](const char *key, const char *words,
                     bool (*inside)(double, double)) {
      auto it = schema.find(key);
      if (it != schema.end() && it->is_number() &&
          !inside(number, it->get<double>()))
        report(at, shortDump(value) + words + shortDump(*it));
    };
    check("minimum", " is below the minimum ",
          [](double n, double b) { return n >= b; });
    check("maximum", " is above the maximum ",
          [](double n, double b) { return n <= b; });
    check("exclusiveMinimum", " must be greater than ",
          [](double n, double b) { return n > b; });
    check("exclusiveMaximum", " must be less than ",
          [](double n, double b) { return n < b; });
  }

  void checkLength(const json &schema, size_t size, const char *minKey,
                   const char *maxKey, const char *unit,
                   const std::string &at) {
    auto bound = [&](const char *key) -> std::optional<size_t> {
      auto it = schema.find(key);
      if (it == schema.end() || !it->is_number_unsigned())
        return std::nullopt;
      return it->get<size_t>();
    };
    if (auto min = bound(minKey); min && size < *min)
      report(at, llvm::formatv("has {0} {1}, fewer than the {2} required", size,
                               unit, *min));
    if (auto max = bound(maxKey); max && size > *max)
      report(at, llvm::formatv("has {0} {1}, more than the {2} allowed", size,
                               unit, *max));
  }

  void checkArray(const json &schema, const json &value,
                  const std::string &at) {
    checkLength(schema, value.size(), "minItems", "maxItems", "items", at);
    auto items = schema.find("items");
    if (items == schema.end())
      return;
    for (size_t i = 0; i < value.size(); ++i)
      check(*items, value[i], at + "/" + std::to_string(i));
  }

  void checkObject(const json &schema, const json &value,
                   const std::string &at) {
    auto properties = schema.find("properties");
    bool haveProperties = properties != schema.end() && properties->is_object();
    if (auto required = schema.find("required");
        required != schema.end() && required->is_array())
      for (const json &name : *required)
        if (name.is_string() && !value.contains(name.get<std::string>()))
          report(at, "the required property '" + name.get<std::string>() +
                         "' is missing");
    auto additional = schema.find("additionalProperties");
    bool closed = additional != schema.end() && additional->is_boolean() &&
                  !additional->get<bool>();
    auto declared = [&](const std::string &key) {
      return haveProperties && properties->contains(key);
    };
    // The object's own problems first, then its members'.
    if (closed)
      for (auto it = value.begin(); it != value.end(); ++it)
        if (!declared(it.key()))
          report(at, "the property '" + it.key() + "' is not allowed");
    for (auto it = value.begin(); it != value.end(); ++it) {
      std::string child = at + "/" + escapePointer(it.key());
      if (declared(it.key()))
        check((*properties)[it.key()], it.value(), child);
      else if (additional != schema.end() && !closed)
        check(*additional, it.value(), child);
    }
  }

  void checkCombinations(const json &schema, const json &value,
                         const std::string &at) {
    // Each alternative is checked on its own, its problems collected
    // separately.
    auto tryAll = [&](const json &list, std::vector<std::string> &firsts) {
      unsigned matches = 0;
      for (const json &alternative : list) {
        Validator inner(root, 1);
        inner.check(alternative, value, at);
        if (inner.problems.empty())
          ++matches;
        else
          firsts.push_back(inner.problems.front());
      }
      return matches;
    };
    if (auto all = schema.find("allOf"); all != schema.end() && all->is_array())
      for (const json &part : *all)
        check(part, value, at);
    if (auto any = schema.find("anyOf");
        any != schema.end() && any->is_array()) {
      std::vector<std::string> firsts;
      if (tryAll(*any, firsts) == 0)
        report(at, "matches none of the allowed forms (" +
                       llvm::join(firsts, "; ") + ")");
    }
    if (auto one = schema.find("oneOf");
        one != schema.end() && one->is_array()) {
      std::vector<std::string> firsts;
      unsigned matches = tryAll(*one, firsts);
      if (matches == 0)
        report(at, "matches none of the allowed forms (" +
                       llvm::join(firsts, "; ") + ")");
      else if (matches > 1)
        report(at, llvm::formatv("matches {0} of the forms, but exactly one "
                                 "is allowed",
                                 matches));
    }
  }

  const json &root;
  size_t limit;
};

} // namespace

std::vector<std::string> mlir::qimeng::llm::validateJSON(const json &schema,
                                                         const json &value,
                                                         size_t limit) {
  Validator validator(schema, limit);
  validator.check(schema, value, "");
  return validator.problems;
}

/// Collects unsupported keywords of `schema` (at `at`) into `out`.
static void findUnsupported(const json &schema, const std::string &at,
                            std::vector<std::string> &out) {
  if (!schema.is_object())
    return;
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    llvm::StringRef key(it.key());
    std::string child = at + "/" + escapePointer(key);
    enum Kind { Leaf, Schema, SchemaMap, SchemaList, Unknown };
    Kind kind =
        llvm::StringSwitch<Kind>(key)
            .Cases({"type", "required", "minItems", "maxItems", "enum", "const",
                    "minimum", "maximum", "exclusiveMinimum",
                    "exclusiveMaximum", "minLength", "maxLength", "$ref"},
                   Leaf)
            .Cases({"title", "description", "$schema", "$id", "default",
                    "examples"},
                   Leaf)
            .Cases({"items", "additionalProperties"}, Schema)
            .Cases({"properties", "$defs", "definitions"}, SchemaMap)
            .Cases({"anyOf", "oneOf", "allOf"}, SchemaList)
            .Default(Unknown);
    switch (kind) {
    case Leaf:
      break;
    case Schema:
      findUnsupported(it.value(), child, out);
      break;
    case SchemaMap:
      if (it.value().is_object())
        for (auto sub = it.value().begin(); sub != it.value().end(); ++sub)
          findUnsupported(sub.value(), child + "/" + escapePointer(sub.key()),
                          out);
      break;
    case SchemaList:
      if (it.value().is_array())
        for (size_t i = 0; i < it.value().size(); ++i)
          findUnsupported(it.value()[i], child + "/" + std::to_string(i), out);
      break;
    case Unknown:
      out.push_back((at.empty() ? std::string("/") : at) +
                    ": unsupported keyword '" + key.str() + "'");
      break;
    }
  }
}

std::vector<std::string>
mlir::qimeng::llm::unsupportedSchemaKeywords(const json &schema) {
  std::vector<std::string> out;
  findUnsupported(schema, "", out);
  return out;
}
