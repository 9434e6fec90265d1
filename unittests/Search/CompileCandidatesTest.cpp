//===- CompileCandidatesTest.cpp - Candidates compiled in parallel --------===//

#include "QiMeng/Search/Search.h"

#include "QiMeng/InitAll.h"

#include "mlir/IR/DialectRegistry.h"

#include "gtest/gtest.h"

#include <atomic>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// A kernel with a plan, as the search prints its candidates.
std::string candidate(int block) {
  return R"(
  func.func @relu(%a: tensor<4096xf32>, %c: tensor<4096xf32>) -> tensor<4096xf32> {
    %zero = arith.constant 0.0 : f32
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%a : tensor<4096xf32>) outs(%c : tensor<4096xf32>)
        attrs = {qimeng.tag = "elementwise0"} {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<4096xf32>
    return %0 : tensor<4096xf32>
  }
  qimeng.plan @relu provenance "tuned" {
    qimeng.tile "elementwise0" [)" +
         std::to_string(block) + R"(] to block
    qimeng.tile "elementwise0" [4] to thread
    qimeng.vectorize "elementwise0" width 4
  })";
}

TEST(CompileCandidatesTest, CompilesInParallelAndReportsFailures) {
  registerAllPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  std::vector<std::string> modules = {candidate(1024), candidate(512),
                                      "func.func @broken(", "", candidate(256)};
  std::atomic<unsigned> calls{0};
  std::vector<CompiledCandidate> compiled =
      compileCandidates(registry, modules, "chip=sm_90", /*threads=*/2,
                        [&](unsigned done) { ++calls; });
  ASSERT_EQ(compiled.size(), modules.size());
  EXPECT_EQ(calls, modules.size());
  for (size_t i : {0, 1, 4}) {
    EXPECT_TRUE(compiled[i].error.empty()) << compiled[i].error;
    EXPECT_NE(compiled[i].lowered.find("gpu.binary"), std::string::npos);
    EXPECT_NE(compiled[i].lowered.find("ld.global.nc.v4.b32"),
              std::string::npos)
        << "the plan's vectors reach the PTX";
  }
  // Different plans give different code.
  EXPECT_NE(compiled[0].lowered, compiled[4].lowered);
  EXPECT_TRUE(compiled[2].lowered.empty());
  EXPECT_NE(compiled[2].error.find("does not parse"), std::string::npos)
      << compiled[2].error;
  EXPECT_TRUE(compiled[3].lowered.empty());
  EXPECT_TRUE(compiled[3].error.empty());
}

} // namespace

namespace {

TEST(CompileCandidatesTest, CandidatesWithTheSameCodeAreMeasuredOnce) {
  auto lowered = [](std::string text) {
    CompiledCandidate c;
    c.lowered = std::move(text);
    return c;
  };
  std::vector<CompiledCandidate> compiled = {
      lowered("a"), lowered(""), lowered("b"), lowered("a"), lowered("b"),
      lowered("")};
  EXPECT_EQ(findSameCode(compiled), (std::vector<int>{-1, -1, -1, 0, 2, -1}));
  EXPECT_TRUE(findSameCode({}).empty());
}

} // namespace
