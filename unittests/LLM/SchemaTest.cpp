//===- SchemaTest.cpp - Local checks of structured LLM replies ------------===//

#include "QiMeng/LLM/Schema.h"

#include "gtest/gtest.h"

using namespace mlir::qimeng::llm;
using nlohmann::json;

namespace {

std::vector<std::string> problems(const char *schema, const char *value) {
  return validateJSON(json::parse(schema), json::parse(value));
}

TEST(SchemaTest, TypesIncludingIntegralFloatsAndUnions) {
  EXPECT_TRUE(problems(R"({"type": "integer"})", "3").empty());
  EXPECT_TRUE(problems(R"({"type": "integer"})", "3.0").empty());
  EXPECT_EQ(problems(R"({"type": "integer"})", "3.5"),
            std::vector<std::string>{"/: expected an integer, got a number"});
  EXPECT_TRUE(problems(R"({"type": "number"})", "3").empty());
  EXPECT_TRUE(problems(R"({"type": ["string", "null"]})", "null").empty());
  EXPECT_EQ(problems(R"({"type": ["string", "null"]})", "true"),
            std::vector<std::string>{
                "/: expected a string or a null, got a boolean"});
}

TEST(SchemaTest, ObjectsArraysAndPointers) {
  const char *schema = R"({
    "type": "object", "required": ["a"], "additionalProperties": false,
    "properties": {"a": {"type": "array", "maxItems": 2,
                         "items": {"type": "object",
                                   "properties": {"x/y": {"const": 1}}}}}})";
  EXPECT_TRUE(problems(schema, R"({"a": [{"x/y": 1}]})").empty());
  EXPECT_EQ(
      problems(schema, R"({"a": [{}, {"x/y": 2}, {}], "b": 0})"),
      (std::vector<std::string>{"/: the property 'b' is not allowed",
                                "/a: has 3 items, more than the 2 allowed",
                                "/a/1/x~1y: expected 1, got 2"}));
  EXPECT_EQ(
      problems(schema, "{}"),
      std::vector<std::string>{"/: the required property 'a' is missing"});
}

TEST(SchemaTest, BoundsEnumsAndStrings) {
  EXPECT_EQ(problems(R"({"minimum": 1, "maximum": 4})", "0"),
            std::vector<std::string>{"/: 0 is below the minimum 1"});
  EXPECT_EQ(problems(R"({"exclusiveMaximum": 4})", "4"),
            std::vector<std::string>{"/: 4 must be less than 4"});
  EXPECT_EQ(problems(R"({"enum": [16, 32]})", "8"),
            std::vector<std::string>{"/: 8 is not one of [16,32]"});
  EXPECT_EQ(
      problems(R"({"maxLength": 2})", R"("abc")"),
      std::vector<std::string>{"/: has 3 characters, more than the 2 allowed"});
}

TEST(SchemaTest, CombinationsAndReferences) {
  const char *schema = R"({
    "$defs": {"pos": {"type": "integer", "minimum": 1}},
    "anyOf": [{"$ref": "#/$defs/pos"}, {"type": "string"}]})";
  EXPECT_TRUE(problems(schema, "2").empty());
  EXPECT_TRUE(problems(schema, R"("x")").empty());
  EXPECT_EQ(problems(schema, "0"),
            std::vector<std::string>{
                "/: matches none of the allowed forms (/: 0 is below the "
                "minimum 1; /: expected a string, got an integer)"});
  EXPECT_EQ(
      problems(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})", "1"),
      std::vector<std::string>{
          "/: matches 2 of the forms, but exactly one is allowed"});
  EXPECT_EQ(problems(R"({"$ref": "#/$defs/missing"})", "1"),
            std::vector<std::string>{
                "/: the schema's $ref \"#/$defs/missing\" does not resolve"});
}

TEST(SchemaTest, ProblemsAreCapped) {
  json schema = {{"type", "array"}, {"items", {{"type", "string"}}}};
  json value = json::array();
  for (int i = 0; i < 50; ++i)
    value.push_back(i);
  EXPECT_EQ(validateJSON(schema, value, 5).size(), 5u);
}

TEST(SchemaTest, UnsupportedKeywordsAreReported) {
  EXPECT_TRUE(unsupportedSchemaKeywords(json::parse(R"({
    "title": "t", "type": "object", "properties": {"a": {"enum": [1]}},
    "$defs": {"b": {"anyOf": [{"type": "string"}]}}})"))
                  .empty());
  EXPECT_EQ(unsupportedSchemaKeywords(json::parse(R"({
    "properties": {"a": {"pattern": "x"}},
    "items": {"uniqueItems": true}})")),
            (std::vector<std::string>{
                "/items: unsupported keyword 'uniqueItems'",
                "/properties/a: unsupported keyword 'pattern'"}));
}

} // namespace
