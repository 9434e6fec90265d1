//===- CandidatesTest.cpp - Plans near the built-in one -------------------===//

#include "QiMeng/Search/Candidates.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <map>

#include <set>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A 1024^3 matmul with the built-in planner's plan.
constexpr llvm::StringLiteral kMatmul = R"(
  func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                    %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = linalg.fill {qimeng.tag = "fill0"} ins(%cst : f32)
        outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %1 = linalg.matmul {qimeng.tag = "matmul0"}
        ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
        outs(%0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %1 : tensor<1024x1024xf32>
  }
  qimeng.plan @matmul provenance "builtin" {
    qimeng.tile "fill0" [64, 64] to block
    qimeng.tile "fill0" [4, 4] to thread
    qimeng.vectorize "fill0" width 4
    qimeng.tile "matmul0" [64, 64, 0] to block
    qimeng.tile "matmul0" [0, 0, 16] to reduction
    qimeng.promote "matmul0" operands [0, 1]
    qimeng.tile "matmul0" [4, 4, 0] to thread
    qimeng.vectorize "matmul0" width 4
    qimeng.pipeline "matmul0" stages 2
    qimeng.fuse "matmul0" producer "fill0"
  })";

/// A bf16 4096^3 matmul (on buffers) with the built-in wgmma plan.
constexpr llvm::StringLiteral kWgmma = R"(
  func.func @mm(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>,
                %c: memref<4096x4096xf32>) {
    linalg.matmul {qimeng.tag = "matmul0"}
        ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>)
        outs(%c : memref<4096x4096xf32>)
    return
  }
  qimeng.plan @mm provenance "builtin" {
    qimeng.tile "matmul0" [128, 256, 0] to block
    qimeng.tile "matmul0" [0, 0, 64] to reduction
    qimeng.tile "matmul0" [64, 256, 0] to warp
    qimeng.mma "matmul0" wgmma [64, 256, 16] (bf16, bf16) -> f32
    qimeng.pipeline "matmul0" stages 4
  })";

/// A batched bf16 matmul with the built-in wgmma plan: the batch loop
/// leads every tile (1, 0, 1).
constexpr llvm::StringLiteral kBatchedWgmma = R"(
  func.func @bmm(%a: memref<8x1024x1024xbf16>, %b: memref<8x1024x1024xbf16>,
                 %c: memref<8x1024x1024xf32>) {
    linalg.batch_matmul {qimeng.tag = "matmul0"}
        ins(%a, %b : memref<8x1024x1024xbf16>, memref<8x1024x1024xbf16>)
        outs(%c : memref<8x1024x1024xf32>)
    return
  }
  qimeng.plan @bmm provenance "builtin" {
    qimeng.tile "matmul0" [1, 128, 256, 0] to block
    qimeng.tile "matmul0" [0, 0, 0, 64] to reduction
    qimeng.tile "matmul0" [1, 64, 256, 0] to warp
    qimeng.mma "matmul0" wgmma [64, 256, 16] (bf16, bf16) -> f32
    qimeng.pipeline "matmul0" stages 4
  })";

/// A column sum with its fill fused (one loop fewer than the sum: the
/// sum's second loop is the fill's first).
constexpr llvm::StringLiteral kColumnSum = R"(
  func.func @colsum(%x: tensor<64x1000xi32>) -> tensor<1000xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<1000xi32>
    %f = linalg.fill {qimeng.tag = "fill0"} ins(%zero : i32)
        outs(%e : tensor<1000xi32>) -> tensor<1000xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                          affine_map<(r, c) -> (c)>],
                         iterator_types = ["reduction", "parallel"]}
        ins(%x : tensor<64x1000xi32>) outs(%f : tensor<1000xi32>)
        attrs = {qimeng.tag = "reduction0"} {
    ^bb0(%a: i32, %acc: i32):
      %s = arith.addi %a, %acc : i32
      linalg.yield %s : i32
    } -> tensor<1000xi32>
    return %r : tensor<1000xi32>
  }
  qimeng.plan @colsum provenance "builtin" {
    qimeng.tile "fill0" [256] to block
    qimeng.tile "fill0" [1] to thread
    qimeng.tile "reduction0" [0, 256] to block
    qimeng.tile "reduction0" [0, 1] to thread
    qimeng.fuse "reduction0" producer "fill0"
  })";

class CandidatesTest : public ::testing::Test {
protected:
  CandidatesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  void load(llvm::StringRef text) {
    module = parseSourceString<ModuleOp>(text, &context);
    ASSERT_TRUE(module);
    kernel = *module->getOps<func::FuncOp>().begin();
    plan = *module->getOps<PlanOp>().begin();
  }

  std::vector<std::string> texts(const std::vector<CandidatePlan> &plans) {
    std::vector<std::string> result;
    for (const CandidatePlan &c : plans)
      result.push_back(
          llvm::formatv("{0}", llvm::json::Value(llvm::json::Object(c.plan)))
              .str());
    return result;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;
  PlanOp plan;
  TargetProfile h200 = *lookupTargetProfile("sm_90");
};

TEST_F(CandidatesTest, NeighboursAreDeterministicForASeed) {
  load(kMatmul);
  llvm::json::Object base = planToJSON(plan);
  std::vector<CandidatePlan> first = generateNeighbours(base, 7);
  std::vector<CandidatePlan> again = generateNeighbours(base, 7);
  std::vector<CandidatePlan> other = generateNeighbours(base, 8);
  ASSERT_GT(first.size(), 20u);
  EXPECT_EQ(texts(first), texts(again));
  // Another seed: the same set in another order.
  EXPECT_NE(texts(first), texts(other));
  std::vector<std::string> a = texts(first), b = texts(other);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()),
            std::set<std::string>(b.begin(), b.end()));
  // No duplicates, and never the plan itself.
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), a.size());
  llvm::json::Object self = base;
  self["provenance"] = "tuned";
  std::string selfText =
      llvm::formatv("{0}", llvm::json::Value(std::move(self))).str();
  EXPECT_EQ(std::count(a.begin(), a.end(), selfText), 0);
}

TEST_F(CandidatesTest, FusedOpsMoveWithTheirHost) {
  load(kMatmul);
  for (const CandidatePlan &c : generateNeighbours(planToJSON(plan), 0)) {
    if (c.moves != "matmul0 block[0] 64->128")
      continue;
    const llvm::json::Array *actions = c.plan.getArray("actions");
    ASSERT_TRUE(actions);
    // The fill's block tile follows the matmul's.
    const llvm::json::Object *fillTile = (*actions)[0].getAsObject();
    EXPECT_EQ(fillTile->getString("target"), "fill0");
    EXPECT_EQ((*fillTile->getArray("sizes"))[0].getAsInteger(), 128);
    return;
  }
  FAIL() << "no move doubled the matmul's block tile";
}

TEST_F(CandidatesTest, SharedRowsArePaddedOrNot) {
  load(kMatmul);
  llvm::json::Object base = planToJSON(plan);
  std::map<std::string, int64_t> pads;
  for (const CandidatePlan &c : generateNeighbours(base, 0)) {
    if (c.moves.find("padd") == std::string::npos ||
        c.moves.find(';') != std::string::npos)
      continue; // not a single padding move
    for (const llvm::json::Value &action : *c.plan.getArray("actions"))
      if (action.getAsObject()->getString("action") == "promote")
        pads[c.moves] = *action.getAsObject()->getInteger("pad");
  }
  EXPECT_EQ(pads, (std::map<std::string, int64_t>{
                      {"matmul0 shared rows padded by 4", 4},
                      {"matmul0 shared rows padded by 8", 8}}));
  // A padded plan's move takes the padding away.
  for (llvm::json::Value &action : *base.getArray("actions"))
    if (action.getAsObject()->getString("action") == "promote")
      (*action.getAsObject())["pad"] = 4;
  bool unpadded = false;
  for (const CandidatePlan &c : generateNeighbours(base, 0))
    unpadded |= c.moves == "matmul0 no shared padding";
  EXPECT_TRUE(unpadded);
}

TEST_F(CandidatesTest, FusedOpsWithFewerLoopsMoveAtTheHostsLoop) {
  load(kColumnSum);
  bool found = false;
  for (const CandidatePlan &c : generateNeighbours(planToJSON(plan), 0)) {
    if (c.moves != "reduction0 block[1] 256->128")
      continue;
    found = true;
    const llvm::json::Array *actions = c.plan.getArray("actions");
    ASSERT_TRUE(actions);
    // The fill's only loop is the sum's second: it follows it.
    const llvm::json::Object *fillTile = (*actions)[0].getAsObject();
    EXPECT_EQ(fillTile->getString("target"), "fill0");
    EXPECT_EQ((*fillTile->getArray("sizes"))[0].getAsInteger(), 128);
  }
  EXPECT_TRUE(found) << "no move halved the sum's block tile";
  // In every neighbour the fill is tiled like the sum's second loop, at
  // both levels (the micro-coder fuses them only then).
  for (const CandidatePlan &c : generateNeighbours(planToJSON(plan), 0)) {
    llvm::StringMap<int64_t> fill, sum;
    for (const llvm::json::Value &action : *c.plan.getArray("actions")) {
      const llvm::json::Object *a = action.getAsObject();
      if (a->getString("action") != "tile")
        continue;
      std::string level = a->getString("level")->str();
      const llvm::json::Array *sizes = a->getArray("sizes");
      if (a->getString("target") == "fill0")
        fill[level] = *(*sizes)[0].getAsInteger();
      else
        sum[level] = *(*sizes)[1].getAsInteger();
    }
    EXPECT_EQ(fill["block"], sum["block"]) << c.moves;
    EXPECT_EQ(fill["thread"], sum["thread"]) << c.moves;
  }
}

TEST_F(CandidatesTest, SelectionIsLegalDefaultFirstAndBounded) {
  load(kMatmul);
  CandidateSelection selection = selectCandidates(plan, kernel, h200, 12, 3);
  ASSERT_EQ(selection.candidates.size(), 12u);
  EXPECT_EQ(selection.candidates.front().source, "default");
  EXPECT_GT(selection.illegal, 0u) << "e.g. 128x128 blocks of 4x4 threads";
  // Every kept candidate builds and verifies against the kernel.
  OpBuilder builder(&context);
  for (const CandidatePlan &c : selection.candidates) {
    builder.setInsertionPointToEnd(module->getBody());
    FailureOr<PlanOp> built =
        planFromJSON(builder, kernel.getLoc(),
                     llvm::json::Value(llvm::json::Object(c.plan)));
    ASSERT_TRUE(succeeded(built)) << c.moves;
    EXPECT_TRUE(succeeded(estimatePlanCost(*built, kernel, h200))) << c.moves;
    (*built)->erase();
    EXPECT_LE(c.relativeCost, kMaxRelativeCost);
  }
  // The same seed selects the same candidates.
  CandidateSelection again = selectCandidates(plan, kernel, h200, 12, 3);
  EXPECT_EQ(texts(selection.candidates), texts(again.candidates));
  // The plan and kernel are left alone.
  EXPECT_EQ(plan.getProvenance(), "builtin");
}

TEST_F(CandidatesTest, ProposedPlansComeRightAfterTheDefault) {
  load(kMatmul);
  // Two legal plans (neighbours as an LLM might propose them), one that
  // names no op of the kernel, and the default plan again.
  CandidateSelection plain = selectCandidates(plan, kernel, h200, 3, 5);
  ASSERT_EQ(plain.candidates.size(), 3u);
  std::vector<CandidatePlan> proposed;
  for (unsigned i : {2u, 1u}) {
    llvm::json::Object json = plain.candidates[i].plan;
    json["provenance"] = "llm:test";
    proposed.push_back({json, "llm", "llm plan " + std::to_string(3 - i), 1});
  }
  llvm::json::Object wrong = planToJSON(plan);
  (*(*wrong.getArray("actions"))[0].getAsObject())["target"] = "nosuch";
  proposed.push_back({wrong, "llm", "llm plan 3", 1});
  llvm::json::Object same = planToJSON(plan);
  same["provenance"] = "llm:test";
  proposed.push_back({same, "llm", "llm plan 4", 1});

  CandidateSelection selection =
      selectCandidates(plan, kernel, h200, 6, 5, proposed);
  ASSERT_EQ(selection.candidates.size(), 6u);
  EXPECT_EQ(selection.proposed, 2u);
  EXPECT_EQ(selection.candidates[0].source, "default");
  EXPECT_EQ(selection.candidates[1].moves, "llm plan 1");
  EXPECT_EQ(selection.candidates[2].moves, "llm plan 2");
  EXPECT_EQ(selection.candidates[3].source, "neighbour");
  bool named = false;
  for (const std::string &reason : selection.illegalReasons)
    named |= reason.rfind("llm plan 3: ", 0) == 0;
  EXPECT_TRUE(named) << "the illegal proposal is counted and named";
  // No neighbour repeats a proposed plan.
  std::vector<std::string> kept = texts(selection.candidates);
  for (size_t i = 3; i < kept.size(); ++i) {
    llvm::json::Object bare = selection.candidates[i].plan;
    bare["provenance"] = "llm:test";
    std::string text =
        llvm::formatv("{0}", llvm::json::Value(std::move(bare))).str();
    EXPECT_NE(text, kept[1]);
    EXPECT_NE(text, kept[2]);
  }
}

TEST_F(CandidatesTest, CostModelPrunesPlansThatStarveTheGpu) {
  // 16 blocks of 64x64 on a 132-SM GPU: 128x128 blocks leave 4.
  std::string small = kMatmul.str();
  for (auto [from, to] : {std::make_pair("1024x1024", "256x256")})
    for (size_t at; (at = small.find(from)) != std::string::npos;)
      small.replace(at, strlen(from), to);
  load(small);
  FailureOr<double> base = estimatePlanCost(plan, kernel, h200);
  ASSERT_TRUE(succeeded(base));
  EXPECT_NEAR(*base, 132.0 / 16.0, 1e-9);
  CandidateSelection selection = selectCandidates(plan, kernel, h200, 64, 0);
  EXPECT_GT(selection.pruned, 0u);
  for (const CandidatePlan &c : selection.candidates) {
    EXPECT_LE(c.relativeCost, kMaxRelativeCost) << c.moves;
    EXPECT_EQ(c.moves.find("block[0] 64->128; matmul0 block[1] 64->128"),
              std::string::npos);
  }
}

TEST_F(CandidatesTest, DescribesTheKernel) {
  load(kMatmul);
  auto [family, features] = describeKernel(kernel);
  EXPECT_EQ(family, "matmul");
  const llvm::json::Array *ops = features.getAsObject()->getArray("ops");
  ASSERT_TRUE(ops);
  ASSERT_EQ(ops->size(), 2u);
  const llvm::json::Object *matmul = (*ops)[1].getAsObject();
  EXPECT_EQ(matmul->getString("tag"), "matmul0");
  EXPECT_EQ((*matmul->getArray("loops"))[2].getAsInteger(), 1024);
}

} // namespace

TEST_F(CandidatesTest, WgmmaPlansMoveAsAWholeAndFit) {
  load(kWgmma);
  // The default fits: 384 threads, 192 KB of dynamic shared memory.
  EXPECT_TRUE(succeeded(estimatePlanCost(plan, kernel, h200)));
  std::set<std::string> names;
  for (const CandidatePlan &c : generateNeighbours(planToJSON(plan), 0))
    if (c.moves.find(';') == std::string::npos)
      names.insert(c.moves);
  EXPECT_EQ(names, (std::set<std::string>{
                       "matmul0 wgmma N 256->128",
                       "matmul0 wgmma warpgroup rows 64->128",
                       "matmul0 pipeline 4->3",
                       "matmul0 pipeline 4->5"}));
  // N 128 keeps the block, warp and instruction shapes in step; one
  // consumer of 128 rows with N 256 needs 280 registers a thread, and 5
  // stages of 128x256x64 tiles 240 KB: both rejected (one consumer with N
  // 128 fits).
  CandidateSelection selection = selectCandidates(plan, kernel, h200, 12, 3);
  OpBuilder builder(&context);
  bool sawN128 = false;
  for (const CandidatePlan &c : selection.candidates) {
    EXPECT_NE(c.moves, "matmul0 wgmma warpgroup rows 64->128");
    EXPECT_NE(c.moves, "matmul0 pipeline 4->5");
    if (c.moves != "matmul0 wgmma N 256->128")
      continue;
    sawN128 = true;
    builder.setInsertionPointToEnd(module->getBody());
    FailureOr<PlanOp> built =
        planFromJSON(builder, kernel.getLoc(),
                     llvm::json::Value(llvm::json::Object(c.plan)));
    ASSERT_TRUE(succeeded(built));
    auto mma = *(*built).getBody().front().getOps<MmaOp>().begin();
    EXPECT_EQ(mma.getShape()[1], 128);
    (*built)->erase();
  }
  EXPECT_TRUE(sawN128);
  EXPECT_GE(selection.illegal, 2u);
}

TEST_F(CandidatesTest, BatchedWgmmaMovesChangeTheLastThreeLoops) {
  load(kBatchedWgmma);
  EXPECT_TRUE(succeeded(estimatePlanCost(plan, kernel, h200)));
  bool sawN = false, sawRows = false;
  for (const CandidatePlan &c : generateNeighbours(planToJSON(plan), 0)) {
    auto sizes = [&](llvm::StringRef level) {
      SmallVector<int64_t> out;
      for (const llvm::json::Value &action : *c.plan.getArray("actions")) {
        const llvm::json::Object *object = action.getAsObject();
        if (object->getString("action") == "tile" &&
            object->getString("level") == level)
          for (const llvm::json::Value &size : *object->getArray("sizes"))
            out.push_back(size.getAsInteger().value_or(-1));
      }
      return out;
    };
    if (c.moves == "matmul0 wgmma N 256->128") {
      sawN = true;
      EXPECT_EQ(sizes("block"), (SmallVector<int64_t>{1, 128, 128, 0}));
      EXPECT_EQ(sizes("warp"), (SmallVector<int64_t>{1, 64, 128, 0}));
    }
    if (c.moves == "matmul0 wgmma warpgroup rows 64->128") {
      sawRows = true;
      EXPECT_EQ(sizes("warp"), (SmallVector<int64_t>{1, 128, 256, 0}));
    }
  }
  EXPECT_TRUE(sawN);
  EXPECT_TRUE(sawRows);
}
