//===- GuardedParseTest.cpp - Parse untrusted MLIR text in a child first --===//

#include "QiMeng/Support/GuardedParse.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

DialectRegistry funcRegistry() {
  DialectRegistry registry;
  registry.insert<func::FuncDialect>();
  return registry;
}

TrialParseResult trial(llvm::StringRef text, std::string &errors,
                       TrialParseOptions options = {}) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                               llvm::SMLoc());
  return trialParse(sourceMgr, funcRegistry(), options, &errors);
}

/// Nested deeper than the parser's recursion can go on a default stack.
std::string tooDeep() {
  std::string text = "func.func private @f() -> ";
  for (int i = 0; i < 300000; ++i)
    text += "tuple<";
  text += "i32";
  text.append(300000, '>');
  return text;
}

TEST(GuardedParseTest, ParsedFailedAndCrashedApart) {
  std::string errors;
  EXPECT_EQ(trial("func.func @f() { return }", errors).outcome,
            TrialParse::Parsed);
  EXPECT_EQ(errors, "");

  EXPECT_EQ(trial("func.func @f( {", errors).outcome, TrialParse::Failed);
  EXPECT_NE(errors.find("expected non-function type"), std::string::npos);

  TrialParseResult crashed = trial(tooDeep(), errors);
  EXPECT_EQ(crashed.outcome, TrialParse::Crashed);
  EXPECT_NE(crashed.why.find("signal"), std::string::npos) << crashed.why;
}

TEST(GuardedParseTest, SplitInputParsesEachPart) {
  TrialParseOptions options;
  options.splitMarker = "// -----";
  std::string errors;
  // Each part alone is fine; together the two @f would not matter to the
  // parser either, so make the second part break only when joined.
  EXPECT_EQ(trial("func.func @f() { return }\n// -----\n"
                  "func.func @g() { return }\n",
                  errors, options)
                .outcome,
            TrialParse::Parsed);
  EXPECT_EQ(trial("func.func @f() { return }\n// -----\nfunc.func @g( {\n",
                  errors, options)
                .outcome,
            TrialParse::Failed);
  EXPECT_NE(errors.find("expected non-function type"), std::string::npos);
}

TEST(GuardedParseTest, ModuleOrReason) {
  MLIRContext context(funcRegistry());
  std::string error;
  OwningOpRef<ModuleOp> module =
      parseModuleGuarded("func.func @f() { return }", &context, error);
  ASSERT_TRUE(module);
  EXPECT_TRUE(module->lookupSymbol<func::FuncOp>("f"));

  EXPECT_FALSE(parseModuleGuarded("func.func @f( {", &context, error));
  EXPECT_NE(error.find("expected non-function type"), std::string::npos);

  // Parsed, but the verifier rejects it (in this process).
  EXPECT_FALSE(
      parseModuleGuarded("func.func @f() -> i32 { return }", &context, error));
  EXPECT_NE(error.find("return"), std::string::npos) << error;

  EXPECT_FALSE(parseModuleGuarded(tooDeep(), &context, error));
  EXPECT_NE(error.find("MLIR's parser crashed on it"), std::string::npos)
      << error;
}

} // namespace
