//===- ReferenceModeTest.cpp - Where the verifier's reference runs --------===//

#include "QiMeng/InitAll.h"
#include "QiMeng/Verifier/Verifier.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A matmul M x N x K on memrefs ("?" for a dynamic M).
std::string matmul(llvm::StringRef m, int64_t n, int64_t k) {
  return llvm::formatv(R"mlir(
func.func @mm(%a: memref<{0}x{2}xf32>, %b: memref<{2}x{1}xf32>,
              %c: memref<{0}x{1}xf32>) {{
  linalg.matmul ins(%a, %b : memref<{0}x{2}xf32>, memref<{2}x{1}xf32>)
                outs(%c : memref<{0}x{1}xf32>)
  return
}
)mlir",
                       m, n, k);
}

TEST(ReferenceModeTest, SmallProblemsOnTheCpuLargeAndDynamicOnTheGpu) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  auto mode = [&](const std::string &text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    return chooseReferenceMode(*module);
  };
  // 2^27 and 2^28 iterations: the CPU; 2^29: the GPU.
  EXPECT_EQ(mode(matmul("512", 512, 512)), RunnerMode::Cpu);
  EXPECT_EQ(mode(matmul("1024", 512, 512)), RunnerMode::Cpu);
  EXPECT_EQ(mode(matmul("1024", 1024, 512)), RunnerMode::NaiveGpu);
  // Sizes known only at run time: the GPU, which takes any size.
  EXPECT_EQ(mode(matmul("?", 4, 4)), RunnerMode::NaiveGpu);
}

TEST(ReferenceModeTest, ReductionLengthIsTheLongestStaticReduction) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  auto length = [&](const std::string &text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    return getReductionLength(*module);
  };
  EXPECT_EQ(length(matmul("64", 32, 16384)), 16384);
  EXPECT_EQ(length(matmul("?", 8, 96)), 96);
  // A sum over two dimensions, after an elementwise op that sums nothing.
  EXPECT_EQ(length(R"mlir(
func.func @f(%x: tensor<4x8x16xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = linalg.exp ins(%x : tensor<4x8x16xf32>) outs(%x : tensor<4x8x16xf32>)
      -> tensor<4x8x16xf32>
  %s = linalg.reduce ins(%e : tensor<4x8x16xf32>) outs(%acc : tensor<4xf32>)
      dimensions = [1, 2]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out : f32
        linalg.yield %0 : f32
      }
  return %s : tensor<4xf32>
}
)mlir"),
            128);
  EXPECT_EQ(length(R"mlir(
func.func @g(%x: memref<8xf32>) {
  linalg.exp ins(%x : memref<8xf32>) outs(%x : memref<8xf32>)
  return
}
)mlir"),
            1);
  // A reduction of a length known only at run time: long enough to widen.
  EXPECT_EQ(length(R"mlir(
func.func @h(%x: memref<4x?xf32>, %acc: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x?xf32>) outs(%acc : memref<4xf32>)
      dimensions = [1]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out : f32
        linalg.yield %0 : f32
      }
  return
}
)mlir"),
            kToleranceReductionLength);
}

} // namespace
