//===- Schema.h - Checking LLM replies against a JSON schema ----*- C++ -*-===//
//
// Every structured reply is checked here, whether or not the provider
// enforced the schema: a reply that fails is an error the caller can send
// back to the model, never a plan. The validator covers the part of JSON
// Schema that QiMeng's own schemas use (and that OpenAI's strict mode
// accepts):
//   type (one or a list), properties, required, additionalProperties
//   (false or a schema), items, minItems, maxItems, enum, const, minimum,
//   maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength,
//   anyOf, oneOf, allOf, $ref to "#/$defs/..." or "#/definitions/...";
//   annotations (title, description, $schema, $id, default, examples) are
//   ignored. A schema using any other keyword is reported, so nothing in a
//   schema is silently unchecked.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_SCHEMA_H
#define QIMENG_LLM_SCHEMA_H

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlir::qimeng::llm {

/// The ways `value` breaks `schema`, each as "<JSON pointer>: <problem>"
/// ("/actions/0/tile: expected an integer, got a string"); empty when it
/// follows the schema. At most `limit` problems are listed.
std::vector<std::string> validateJSON(const nlohmann::json &schema,
                                      const nlohmann::json &value,
                                      size_t limit = 20);

/// Keywords in `schema` the validator does not check, as
/// "<schema pointer>: unsupported keyword 'k'"; empty when it checks all.
std::vector<std::string>
unsupportedSchemaKeywords(const nlohmann::json &schema);

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_SCHEMA_H
