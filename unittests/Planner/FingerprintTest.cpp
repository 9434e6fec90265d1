//===- FingerprintTest.cpp - A stable key of a kernel ---------------------===//

#include "QiMeng/Planner/Fingerprint.h"

#include "QiMeng/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

class FingerprintTest : public ::testing::Test {
protected:
  FingerprintTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The fingerprint of the only function in `text`.
  std::string fingerprint(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return "";
    auto funcs = module->getOps<func::FuncOp>();
    EXPECT_EQ(std::distance(funcs.begin(), funcs.end()), 1);
    return getKernelFingerprint(*funcs.begin());
  }

  MLIRContext context;
};

constexpr llvm::StringLiteral kMatmul = R"(
  func.func @mm(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>,
                %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %zero = arith.constant 0.0 : f32
    %init = linalg.fill ins(%zero : f32) outs(%c : tensor<64x16xf32>)
        -> tensor<64x16xf32>
    %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
        outs(%init : tensor<64x16xf32>) -> tensor<64x16xf32>
    return %r : tensor<64x16xf32>
  })";

TEST_F(FingerprintTest, IsSha256Hex) {
  std::string key = fingerprint(kMatmul);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(key, fingerprint(kMatmul));
}

TEST_F(FingerprintTest, IgnoresNamesLocationsAndTags) {
  std::string renamed = R"(
    func.func @other_name(%x: tensor<64x32xf32>, %y: tensor<32x16xf32>,
                          %out: tensor<64x16xf32>) -> tensor<64x16xf32> {
      %cst = arith.constant 0.0 : f32 loc("a.py":3:4)
      %filled = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32)
          outs(%out : tensor<64x16xf32>) -> tensor<64x16xf32> loc("a.py":5:1)
      %prod = linalg.matmul {qimeng.tag = "matmul0"}
          ins(%x, %y : tensor<64x32xf32>, tensor<32x16xf32>)
          outs(%filled : tensor<64x16xf32>) -> tensor<64x16xf32>
      return %prod : tensor<64x16xf32>
    })";
  EXPECT_EQ(fingerprint(kMatmul), fingerprint(renamed));
}

TEST_F(FingerprintTest, ChangesWithShapesTypesAndOps) {
  std::string base = fingerprint(kMatmul);
  std::string shape = kMatmul.str();
  for (size_t at; (at = shape.find("64x")) != std::string::npos;)
    shape.replace(at, 3, "128x");
  EXPECT_NE(base, fingerprint(shape));

  std::string element = kMatmul.str();
  for (size_t at; (at = element.find("f32")) != std::string::npos;)
    element.replace(at, 3, "f64");
  EXPECT_NE(base, fingerprint(element));

  std::string constant = kMatmul.str();
  constant.replace(constant.find("0.0 : f32"), 3, "1.0");
  EXPECT_NE(base, fingerprint(constant));
}

} // namespace
