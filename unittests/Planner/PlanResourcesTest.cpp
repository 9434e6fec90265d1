//===- PlanResourcesTest.cpp - Does a plan fit the GPU? -------------------===//

#include "QiMeng/Planner/PlanResources.h"

#include "QiMeng/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

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

  std::vector<std::string> check(llvm::StringRef actions,
                                 std::vector<TargetResources> *out = nullptr) {
    std::string text =
        R"(func.func @k(%a: memref<256x512xf32>, %b: memref<512x256xf32>,
                      %c: memref<256x256xf32>) {
             linalg.matmul {qimeng.tag = "mm"}
               ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>)
               outs(%c : memref<256x256xf32>)
             return
           }
           qimeng.plan @k provenance "builtin" {
           )" +
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
