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

} // namespace
