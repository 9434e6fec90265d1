//===- PlanResourcesTest.cpp - Does a plan fit the GPU? -------------------===//

#include "QiMeng/Planner/PlanResources.h"

#include "QiMeng/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A 256x256x512 f32 matmul tagged "mm" and `actions` as its plan.
class PlanResourcesTest : public ::testing::Test {
protected:
  PlanResourcesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The kernel checked by default: an f32 matmul.
  static constexpr llvm::StringLiteral kMatmul =
      R"(func.func @k(%a: memref<256x512xf32>, %b: memref<512x256xf32>,
                      %c: memref<256x256xf32>) {
             linalg.matmul {qimeng.tag = "mm"}
               ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>)
               outs(%c : memref<256x256xf32>)
             return
           })";

  std::vector<std::string> check(llvm::StringRef actions,
                                 std::vector<TargetResources> *out = nullptr,
                                 llvm::StringRef kernelText = kMatmul) {
    std::string text = kernelText.str() +
                       "\nqimeng.plan @k provenance \"builtin\" {\n" +
                       actions.str() + "\n}";
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module) << text;
    if (!module)
      return {"does not parse"};
    auto plan = *module->getOps<PlanOp>().begin();
    auto kernel = module->lookupSymbol<func::FuncOp>("k");
    return checkPlanResources(plan, kernel, *lookupTargetProfile("sm_90"), out);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(PlanResourcesTest, TheBuiltinStyleMatmulPlanFits) {
  std::vector<TargetResources> resources;
  EXPECT_TRUE(check(R"(qimeng.tile "mm" [64, 64, 0] to block
                       qimeng.tile "mm" [0, 0, 16] to reduction
                       qimeng.promote "mm" operands [0, 1]
                       qimeng.tile "mm" [4, 4, 0] to thread
                       qimeng.pipeline "mm" stages 2)",
                    &resources)
                  .empty());
  ASSERT_EQ(resources.size(), 1u);
  EXPECT_EQ(resources[0].threadsPerBlock, 256);
  // (64x16 + 16x64) floats, twice.
  EXPECT_EQ(resources[0].sharedBytes, 2 * 2048 * 4);
  // 16 accumulators, 4 + 4 fragments, the base.
  EXPECT_EQ(resources[0].registersPerThread, 24 + 16 + 8);
}

TEST_F(PlanResourcesTest, PaddedRowsCountInSharedMemory) {
  std::vector<TargetResources> resources;
  EXPECT_TRUE(check(R"(qimeng.tile "mm" [64, 64, 0] to block
                       qimeng.tile "mm" [0, 0, 16] to reduction
                       qimeng.promote "mm" operands [0, 1] pad 4
                       qimeng.tile "mm" [4, 4, 0] to thread
                       qimeng.pipeline "mm" stages 2)",
                    &resources)
                  .empty());
  ASSERT_EQ(resources.size(), 1u);
  // (64x(16+4) + 16x(64+4)) floats, twice.
  EXPECT_EQ(resources[0].sharedBytes, 2 * (64 * 20 + 16 * 68) * 4);
}

TEST_F(PlanResourcesTest, EachLimitIsReported) {
  std::vector<std::string> problems =
      check(R"(qimeng.tile "mm" [512, 64, 0] to block
               qimeng.tile "mm" [0, 0, 64] to reduction
               qimeng.promote "mm" operands [0, 1]
               qimeng.tile "mm" [1, 2, 0] to thread)");
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0],
            "'mm': the block tile 512 of loop 0 exceeds the loop's extent 256");
  EXPECT_EQ(problems[1], "'mm': 16384 threads per block, more than the 1024 "
                         "the GPU allows");
  EXPECT_EQ(problems[2],
            "'mm': 147456 bytes of shared memory per block (promoted tiles x "
            "1 stages), more than the 49152 a block may allocate statically");
}

TEST_F(PlanResourcesTest, AThreadTileMustDivideItsBlockTile) {
  // 2 does not divide the block tile's 1 (what the built-in micro-coder
  // rejects when it realizes the plan).
  std::vector<std::string> problems =
      check(R"(qimeng.tile "mm" [1, 64, 0] to block
               qimeng.tile "mm" [2, 4, 0] to thread)");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "'mm': the thread tile [2, 4, 0] does not divide "
                         "the block tile [1, 64, 0]");
  EXPECT_TRUE(check(R"(qimeng.tile "mm" [2, 64, 0] to block
                       qimeng.tile "mm" [2, 4, 0] to thread)")
                  .empty());
}

TEST_F(PlanResourcesTest, RegistersOfLargeThreadTiles) {
  std::vector<std::string> problems =
      check(R"(qimeng.tile "mm" [128, 128, 0] to block
               qimeng.tile "mm" [16, 16, 0] to thread)");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "'mm': about 312 registers per thread (256 "
                         "accumulators), more than the 255 a thread has: use "
                         "smaller thread tiles");
}

} // namespace

TEST_F(PlanResourcesTest, AWeightStoredNKNeedsWarpgroupsOf64Rows) {
  // B stored (n, k): the kernel's 16-deep slices step only 64 rows of A.
  constexpr llvm::StringLiteral linear =
      R"(func.func @k(%a: memref<1024x512xbf16>, %w: memref<1024x512xbf16>,
                      %c: memref<1024x1024xf32>) {
             linalg.matmul indexing_maps = [
                 affine_map<(m, n, k) -> (m, k)>,
                 affine_map<(m, n, k) -> (n, k)>,
                 affine_map<(m, n, k) -> (m, n)>]
               ins(%a, %w : memref<1024x512xbf16>, memref<1024x512xbf16>)
               outs(%c : memref<1024x1024xf32>) {qimeng.tag = "mm"}
             return
           })";
  auto plan = [](int64_t rows) {
    return llvm::formatv(R"(qimeng.tile "mm" [128, 128, 0] to block
                            qimeng.tile "mm" [0, 0, 64] to reduction
                            qimeng.tile "mm" [{0}, 128, 0] to warp
                            qimeng.mma "mm" wgmma [64, 128, 16] (bf16, bf16) -> f32
                            qimeng.pipeline "mm" stages 4)",
                         rows)
        .str();
  };
  EXPECT_TRUE(check(plan(64), nullptr, linear).empty());
  std::vector<std::string> problems = check(plan(128), nullptr, linear);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("needs consumer warpgroups of 64 rows, not 128"),
            std::string::npos)
      << problems[0];
}
