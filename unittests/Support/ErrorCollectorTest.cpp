//===- ErrorCollectorTest.cpp - Error diagnostics gathered into text ------===//

#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

TEST(ErrorCollectorTest, KeepsErrorsInOrderAndSwallowsTheRest) {
  MLIRContext context;
  Location loc = UnknownLoc::get(&context);
  std::vector<std::string> outside;
  ScopedDiagnosticHandler enclosing(&context, [&](Diagnostic &diag) {
    outside.push_back(diag.str());
    return success();
  });
  {
    ErrorCollector errors(&context);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(errors.first("none"), "none");
    EXPECT_EQ(errors.join("; ", "none"), "none");
    emitWarning(loc) << "a warning";
    emitError(loc) << "first";
    emitRemark(loc) << "a remark";
    emitError(loc) << "second";
    EXPECT_EQ(errors.getErrors(),
              (std::vector<std::string>{"first", "second"}));
    EXPECT_EQ(errors.first("none"), "first");
    EXPECT_EQ(errors.join(), "first; second");
    EXPECT_EQ(errors.join("\n"), "first\nsecond");
  }
  // Nothing reached the enclosing handler meanwhile; afterwards it is back.
  EXPECT_TRUE(outside.empty());
  emitError(loc) << "later";
  EXPECT_EQ(outside, std::vector<std::string>{"later"});
}

} // namespace
