//===- PlanJSONTest.cpp - Plans <-> JSON and the plan schema --------------===//

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::qimeng;
namespace json = llvm::json;

namespace {

constexpr const char *kModule = R"mlir(
func.func @mm(%A: tensor<64x32xf16>, %B: tensor<32x16xf16>, %C: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill {qimeng.tag = "fill"} ins(%cst : f32) outs(%C : tensor<64x16xf32>) -> tensor<64x16xf32>
  %0 = linalg.matmul {qimeng.tag = "mm"} ins(%A, %B : tensor<64x32xf16>, tensor<32x16xf16>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}
qimeng.plan @mm provenance "llm:test-model" {
  qimeng.fuse "mm" producer "fill"
  qimeng.tile "mm" [32, 16, 0] to block interchange [1, 0, 2]
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1] pad 8
  qimeng.tile "mm" [16, 8, 0] to warp
  qimeng.vectorize "mm" width 4
  qimeng.unroll "mm" dim 2 factor 2
  qimeng.pipeline "mm" stages 3
  qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
}
)mlir";

class PlanJSONTest : public ::testing::Test {
protected:
  PlanJSONTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  /// Imports `text` as a plan into `module`, collecting error messages.
  FailureOr<PlanOp> import(ModuleOp module, StringRef text) {
    errors.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors.push_back(diag.str());
      return success();
    });
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(module.getBody());
    return planFromJSONText(builder, UnknownLoc::get(&context), text);
  }

  /// A JSON plan and a message its import must report.
  struct Case {
    const char *json;
    const char *message;
  };

  /// Imports each case into `module`, expecting failure with its message.
  void expectImportErrors(ModuleOp module, ArrayRef<Case> cases) {
    for (const Case &c : cases) {
      EXPECT_TRUE(failed(import(module, c.json))) << c.json;
      EXPECT_NE(allErrors().find(c.message), std::string::npos)
          << "expected '" << c.message << "' in:\n" << allErrors();
    }
  }

  std::string allErrors() const {
    std::string s;
    for (const std::string &e : errors)
      s += e + "\n";
    return s;
  }

  MLIRContext context;
  std::vector<std::string> errors;
};

TEST_F(PlanJSONTest, RoundTripIsLossless) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  auto plan = *module->getOps<PlanOp>().begin();
  json::Object first = planToJSON(plan);

  // Import into a fresh copy of the module without its plan.
  OwningOpRef<ModuleOp> copy = parse(kModule);
  (*copy->getOps<PlanOp>().begin())->erase();
  std::string text = llvm::formatv("{0}", json::Value(json::Object(first)));
  FailureOr<PlanOp> imported = import(*copy, text);
  ASSERT_TRUE(succeeded(imported)) << allErrors();

  // Same JSON and same printed IR.
  EXPECT_EQ(json::Value(planToJSON(*imported)), json::Value(std::move(first)));
  std::string a, b;
  llvm::raw_string_ostream(a) << plan;
  llvm::raw_string_ostream(b) << *imported;
  EXPECT_EQ(a, b);
}

TEST_F(PlanJSONTest, ActionJSONHasEveryParameter) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  auto plan = *module->getOps<PlanOp>().begin();
  for (MacroActionOpInterface action : plan.getActions()) {
    json::Object obj = actionToJSON(action);
    EXPECT_EQ(obj.size(), action.getParamSpecs().size() + 1);
    EXPECT_FALSE(action.describe().empty());
  }
  // Defaults are written out: no interchange, no padding.
  json::Object reduction = actionToJSON(plan.getActions()[2]);
  EXPECT_EQ(*reduction.getArray("interchange"), json::Array{});
}

TEST_F(PlanJSONTest, RejectsMalformedJSON) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(import(*module, "{not json")));
  EXPECT_NE(allErrors().find("not valid JSON"), std::string::npos);
}

TEST_F(PlanJSONTest, RejectsShapeErrorsWithTheirPath) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  Case cases[] = {
      {R"({"kernel":"mm","provenance":"builtin","actions":[],"extra":1})",
       "at '$': unknown key 'extra'"},
      {R"({"provenance":"builtin","actions":[]})", "at 'kernel'"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"spin"}]})",
       "unknown action 'spin'; expected one of"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"tile","target":"mm","sizes":[1,2,0]}]})",
       "at 'actions[0].level': missing required parameter"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"tile","target":"mm","sizes":[1,2,0],"level":"grid"}]})",
       "at 'actions[0].level': expected one of block, warp, thread, reduction"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"tile","target":"mm","sizes":"big","level":"block"}]})",
       "at 'actions[0].sizes': expected an array of integers"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"vectorize","target":"mm","width":4,"speed":9}]})",
       "at 'actions[0]': unknown key 'speed'"},
  };
  expectImportErrors(*module, cases);
  // Nothing half-built is left in the module.
  EXPECT_EQ(llvm::range_size(module->getOps<PlanOp>()), 1u);
}

TEST_F(PlanJSONTest, RunsTheOpVerifiers) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  Case cases[] = {
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"vectorize","target":"mm","width":3}]})",
       "at 'actions[0]': 'qimeng.vectorize' op vector width must be a power of two, got 3"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"tile","target":"mm","sizes":[1,2],"level":"block","interchange":[]}]})",
       "expects 3 tile sizes, one per loop of 'linalg.matmul', got 2"},
      {R"({"kernel":"mm","provenance":"builtin","actions":[{"action":"pipeline","target":"nope","stages":2}]})",
       "targets 'nope', but no operation of @mm is tagged so"},
      {R"({"kernel":"gone","provenance":"builtin","actions":[]})",
       "kernel @gone does not name a function"},
      {R"({"kernel":"mm","provenance":"human","actions":[]})",
       "provenance must be 'builtin', 'tuned' or 'llm:<model>'"},
  };
  expectImportErrors(*module, cases);
  EXPECT_EQ(llvm::range_size(module->getOps<PlanOp>()), 1u);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(PlanJSONTest, SchemaIsStrictAndCoversEveryAction) {
  json::Object schema = getPlanJSONSchema(&context);
  EXPECT_EQ(schema["additionalProperties"], json::Value(false));
  const json::Array *variants =
      schema.getObject("properties")->getObject("actions")->getObject("items")
          ->getArray("anyOf");
  ASSERT_TRUE(variants);
  std::vector<std::string> names;
  for (const json::Value &v : *variants) {
    const json::Object *obj = v.getAsObject();
    ASSERT_TRUE(obj);
    EXPECT_EQ(*obj->get("additionalProperties"), json::Value(false));
    const json::Object *props = obj->getObject("properties");
    // Strict mode: every property is required.
    EXPECT_EQ(obj->getArray("required")->size(), props->size());
    names.push_back(
        (*props->getObject("action")->getArray("enum"))[0].getAsString()->str());
  }
  std::vector<std::string> expected = {"fuse", "mma", "pipeline", "promote",
                                       "tile", "unroll", "vectorize"};
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, expected);
}

TEST_F(PlanJSONTest, SchemaEnumsMatchTheIR) {
  // Each enum symbol the schema offers must be accepted by the importer.
  json::Object schema = getPlanJSONSchema(&context);
  std::string text = llvm::formatv("{0}", json::Value(std::move(schema)));
  for (const char *symbol : {"block", "warp", "thread", "reduction", "mma_sync",
                             "wmma", "wgmma", "f16", "bf16", "tf32", "f32",
                             "producer", "consumer"})
    EXPECT_NE(text.find(std::string("\"") + symbol + "\""), std::string::npos)
        << symbol;
}

} // namespace
