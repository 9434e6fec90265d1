//===- OpFamilyTest.cpp - What kind of kernel an op is --------------------===//

#include "QiMeng/Planner/OpFamily.h"

#include "QiMeng/InitAll.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

class OpFamilyTest : public ::testing::Test {
protected:
  OpFamilyTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// getNumBatchLoops of a five-loop contraction generic (l0, l1, m, n, k)
  /// whose B is indexed by `bMap`'s results and has type `bType`; A is
  /// (l0, l1, m, k), the output (l0, l1, m, n).
  int64_t batchLoops(llvm::StringRef bMap, llvm::StringRef bType) {
    std::string text =
        "#a = affine_map<(l0, l1, m, n, k) -> (l0, l1, m, k)>\n"
        "#b = affine_map<(l0, l1, m, n, k) -> (" +
        bMap.str() +
        ")>\n"
        "#c = affine_map<(l0, l1, m, n, k) -> (l0, l1, m, n)>\n"
        "func.func @f(%a: tensor<4x3x64x128xf32>, %b: " +
        bType.str() +
        ", %c: tensor<4x3x64x32xf32>) -> tensor<4x3x64x32xf32> {\n"
        "  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types "
        "= [\"parallel\", \"parallel\", \"parallel\", \"parallel\", "
        "\"reduction\"]} ins(%a, %b : tensor<4x3x64x128xf32>, " +
        bType.str() +
        ") outs(%c : tensor<4x3x64x32xf32>) {\n"
        "  ^bb0(%x: f32, %y: f32, %acc: f32):\n"
        "    %p = arith.mulf %x, %y : f32\n"
        "    %s = arith.addf %acc, %p : f32\n"
        "    linalg.yield %s : f32\n"
        "  } -> tensor<4x3x64x32xf32>\n"
        "  return %r : tensor<4x3x64x32xf32>\n"
        "}\n";
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return -2;
    linalg::LinalgOp op;
    module->walk([&](linalg::LinalgOp found) { op = found; });
    return getNumBatchLoops(op);
  }

  /// takesWgmma of the matmul of `body`, a function of operands %a, %b, %c.
  bool wgmma(llvm::StringRef body) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(body, &context);
    EXPECT_TRUE(module);
    linalg::LinalgOp op;
    if (module)
      module->walk([&](linalg::LinalgOp found) { op = found; });
    return op && takesWgmma(op);
  }

  MLIRContext context;
  /// The module a test's ops live in (kept while the test inspects them).
  OwningOpRef<ModuleOp> module;
};

/// A bf16 64 x `n` x 128 matmul reading B (`nk`: stored (n, k)) through
/// its maps.
std::string matmul(int64_t n, bool nk) {
  std::string c = "tensor<64x" + std::to_string(n) + "xf32>";
  std::string b = nk ? "tensor<" + std::to_string(n) + "x128xbf16>"
                     : "tensor<128x" + std::to_string(n) + "xbf16>";
  return "func.func @f(%a: tensor<64x128xbf16>, %b: " + b + ", %c: " + c +
         ") {\n  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> "
         "(m, k)>, affine_map<(m, n, k) -> (" +
         (nk ? "n, k" : "k, n") +
         ")>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : "
         "tensor<64x128xbf16>, " +
         b + ") outs(%c : " + c + ") -> " + c + "\n  return\n}\n";
}

/// A batched f16 matmul: A (4, 64, K), B of `bType` read through `bMap`.
std::string batched(int64_t k, llvm::StringRef bMap, llvm::StringRef bType,
                    bool sliceA = false) {
  std::string a = "tensor<4x64x" + std::to_string(k) + "xf16>";
  std::string prologue =
      sliceA ? "  %s = tensor.extract_slice %a[0, 0, 0] [4, 64, " +
                   std::to_string(k) + "] [1, 1, 1] : tensor<4x64x" +
                   std::to_string(2 * k) + "xf16> to " + a + "\n"
             : "";
  std::string aArg =
      sliceA ? "tensor<4x64x" + std::to_string(2 * k) + "xf16>" : a;
  return "func.func @f(%a: " + aArg + ", %b: " + bType.str() +
         ", %c: tensor<4x64x96xf32>) {\n" + prologue +
         "  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> "
         "(b, m, k)>, affine_map<(b, m, n, k) -> (" +
         bMap.str() +
         ")>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = "
         "[\"parallel\", \"parallel\", \"parallel\", \"reduction\"]} ins(" +
         (sliceA ? "%s" : "%a") + ", %b : " + a + ", " + bType.str() +
         ") outs(%c : tensor<4x64x96xf32>) {\n  ^bb0(%x: f16, %y: f16, %z: "
         "f32):\n    %xf = arith.extf %x : f16 to f32\n    %yf = arith.extf "
         "%y : f16 to f32\n    %p = arith.mulf %xf, %yf : f32\n    %q = "
         "arith.addf %z, %p : f32\n    linalg.yield %q : f32\n  } -> "
         "tensor<4x64x96xf32>\n  return\n}\n";
}

/// A split K's product: A (64, 4, kc) read (m, s, k), B of `bType` read
/// through `bMap`, C (4, 64, 96).
std::string splitK(int64_t kc, llvm::StringRef bMap, llvm::StringRef bType) {
  std::string a = "tensor<64x4x" + std::to_string(kc) + "xf16>";
  return "func.func @f(%a: " + a + ", %b: " + bType.str() +
         ", %c: tensor<4x64x96xf32>) {\n"
         "  %r = linalg.generic {indexing_maps = [affine_map<(s, m, n, k) -> "
         "(m, s, k)>, affine_map<(s, m, n, k) -> (" +
         bMap.str() +
         ")>, affine_map<(s, m, n, k) -> (s, m, n)>], iterator_types = "
         "[\"parallel\", \"parallel\", \"parallel\", \"reduction\"]} "
         "ins(%a, %b : " +
         a + ", " + bType.str() +
         ") outs(%c : tensor<4x64x96xf32>) {\n  ^bb0(%x: f16, %y: f16, %z: "
         "f32):\n    %xf = arith.extf %x : f16 to f32\n    %yf = arith.extf "
         "%y : f16 to f32\n    %p = arith.mulf %xf, %yf : f32\n    %q = "
         "arith.addf %z, %p : f32\n    linalg.yield %q : f32\n  } -> "
         "tensor<4x64x96xf32>\n  return\n}\n";
}

/// A bf16 (m, k) x (k, n) -> f32 matmul with static sizes.
std::string plainMatmul(int64_t m, int64_t n, int64_t k) {
  auto type = [](int64_t rows, int64_t cols, llvm::StringRef element) {
    std::string size = ShapedType::isDynamic(rows) ? "?" : std::to_string(rows);
    return "tensor<" + size + "x" + std::to_string(cols) + "x" + element.str() +
           ">";
  };
  std::string a = type(m, k, "bf16"), b = type(k, n, "bf16"),
              c = type(m, n, "f32");
  return "func.func @f(%a: " + a + ", %b: " + b + ", %c: " + c +
         ") {\n  %r = linalg.matmul ins(%a, %b : " + a + ", " + b +
         ") outs(%c : " + c + ") -> " + c + "\n  return\n}\n";
}

TEST_F(OpFamilyTest, RightOperandHasEveryBatchLoopOrNone) {
  EXPECT_EQ(batchLoops("l0, l1, k, n", "tensor<4x3x128x32xf32>"), 2);
  EXPECT_EQ(batchLoops("k, n", "tensor<128x32xf32>"), 2);
}

TEST_F(OpFamilyTest, RightOperandMaySkipBatchLoops) {
  // The parts of a split K (l0) with a dynamic M's tiles (l1) that share B.
  EXPECT_EQ(batchLoops("l0, k, n", "tensor<4x128x32xf32>"), 2);
  EXPECT_EQ(batchLoops("l1, k, n", "tensor<3x128x32xf32>"), 2);
}

TEST_F(OpFamilyTest, RightOperandBatchLoopsInOrderOnly) {
  // Batch loops out of order, or a loop that is not a batch loop (m) before
  // k and n: not a batched matmul.
  EXPECT_EQ(batchLoops("l1, l0, k, n", "tensor<3x4x128x32xf32>"), -1);
  EXPECT_EQ(batchLoops("m, k, n", "tensor<64x128x32xf32>"), -1);
}

TEST(PartCountTest, PowersOfTwoThatDivide) {
  EXPECT_EQ(choosePartCount(100, 1024, 8), 128);
  EXPECT_EQ(choosePartCount(5, 1000, 8), 8);
  EXPECT_EQ(choosePartCount(731, 1001, 8), 1);
  EXPECT_EQ(choosePartCount(4, 16, 8), 2);
}

TEST(PartCountTest, OddLengthsTakeADivisor) {
  // 1001 = 7 x 11 x 13: the largest divisor within 1024 parts of 8 or more.
  EXPECT_EQ(chooseDividingPartCount(731, 1001, 8), 91);
  EXPECT_EQ(chooseDividingPartCount(10, 1001, 8), 13);
  // Where a power of two divides, the same as choosePartCount.
  EXPECT_EQ(chooseDividingPartCount(5, 1000, 8), 8);
  // A prime, or an odd length too short to pay for the combining kernel.
  EXPECT_EQ(chooseDividingPartCount(100, 1009, 8), 1);
  EXPECT_EQ(chooseDividingPartCount(100, 33, 8), 1);
}

} // namespace

TEST_F(OpFamilyTest, WgmmaTakesAWeightStoredNKWithAnyN) {
  // (k, n): N must be a multiple of 8 (B's TMA rows); (n, k): only K.
  EXPECT_TRUE(wgmma(matmul(96, /*nk=*/false)));
  EXPECT_TRUE(wgmma(matmul(96, /*nk=*/true)));
  EXPECT_FALSE(wgmma(matmul(100, /*nk=*/false)));
  EXPECT_TRUE(wgmma(matmul(100, /*nk=*/true)));
}

TEST_F(OpFamilyTest, WgmmaTakesBatchedMatmulsOfWholeOperands) {
  EXPECT_TRUE(wgmma(batched(128, "b, k, n", "tensor<4x128x96xf16>")));
  EXPECT_TRUE(wgmma(batched(80, "b, n, k", "tensor<4x96x80xf16>")));
  // A (b, k, n) B is read as one matrix: K a multiple of the K step.
  EXPECT_FALSE(wgmma(batched(80, "b, k, n", "tensor<4x80x96xf16>")));
  // A slice of a larger tensor is not one matrix of rows.
  EXPECT_FALSE(
      wgmma(batched(128, "b, k, n", "tensor<4x128x96xf16>", /*sliceA=*/true)));
  // A B every batch shares is not taken.
  EXPECT_FALSE(wgmma(batched(128, "k, n", "tensor<128x96xf16>")));
}

TEST_F(OpFamilyTest, WgmmaTakesSplitKProducts) {
  // A split K's parts are one batch loop of the wgmma kernel, B stored
  // (s, k, n) or (n, s, k); each part a whole number of K steps.
  auto parse = [&](const std::string &text) {
    module = parseSourceString<ModuleOp>(text, &context);
    linalg::LinalgOp op;
    if (module)
      module->walk([&](linalg::LinalgOp found) { op = found; });
    return op;
  };
  linalg::LinalgOp kn = parse(splitK(512, "s, k, n", "tensor<4x512x96xf16>"));
  ASSERT_TRUE(kn);
  EXPECT_TRUE(isSplitKMatmul(kn));
  EXPECT_EQ(getWgmmaBatchLoops(kn), 1);
  EXPECT_FALSE(readsNKRhs(kn));
  EXPECT_TRUE(takesWgmma(kn));
  linalg::LinalgOp nk = parse(splitK(512, "n, s, k", "tensor<96x4x512xf16>"));
  ASSERT_TRUE(nk);
  EXPECT_TRUE(readsNKRhs(nk));
  EXPECT_TRUE(takesWgmma(nk));
  linalg::LinalgOp off = parse(splitK(104, "n, s, k", "tensor<96x4x104xf16>"));
  ASSERT_TRUE(off);
  EXPECT_FALSE(takesWgmma(off));
  // A batched matmul is not a split K.
  linalg::LinalgOp bmm = parse(batched(128, "b, k, n", "tensor<4x128x96xf16>"));
  ASSERT_TRUE(bmm);
  EXPECT_FALSE(isSplitKMatmul(bmm));
}

TEST_F(OpFamilyTest, WgmmaSplitsKWhereTilesLeaveSMsIdle) {
  auto splits = [&](int64_t m, int64_t n, int64_t k, int64_t sms = 132) {
    module = parseSourceString<ModuleOp>(plainMatmul(m, n, k), &context);
    linalg::LinalgOp op;
    if (module)
      module->walk([&](linalg::LinalgOp found) { op = found; });
    return op ? getWgmmaKSplits(op, sms) : -1;
  };
  // 12 tiles of 128 x 128 and 64 K steps: 8 parts (96 blocks).
  EXPECT_EQ(splits(97, 1536, 4096), 8);
  // 6 tiles, 128 K steps: 16 parts, the most.
  EXPECT_EQ(splits(256, 384, 8192), 16);
  // 8 K steps: the partial sums would cost more than they save.
  EXPECT_EQ(splits(1024, 1024, 512), 1);
  // Tiles enough for every SM.
  EXPECT_EQ(splits(2048, 2048, 4096), 1);
  // K off the 64-deep K step; no SM count.
  EXPECT_EQ(splits(128, 256, 4000), 1);
  EXPECT_EQ(splits(97, 1536, 4096, /*sms=*/0), 1);
  // A dynamic M: versioned instead (below).
  EXPECT_EQ(splits(ShapedType::kDynamic, 512, 4096), 1);
}

TEST_F(OpFamilyTest, WgmmaVersionsDynamicRowsByPlan) {
  auto versions = [&](int64_t m, int64_t n, int64_t k) {
    module = parseSourceString<ModuleOp>(plainMatmul(m, n, k), &context);
    linalg::LinalgOp op;
    if (module)
      module->walk([&](linalg::LinalgOp found) { op = found; });
    std::string text;
    if (!op)
      return text;
    for (WgmmaRowVersion version : getWgmmaRowVersions(op, 132))
      text += std::to_string(version.maxRows) + ":" +
              std::to_string(version.parts) + "/" +
              std::to_string(version.tileN) + " ";
    return text;
  };
  int64_t dynamic = ShapedType::kDynamic;
  // Four tile columns, 64 K steps: 16 parts for one row tile, fewer as the
  // rows grow (the SMs fill, the partial sums grow), none past 14 row
  // tiles; then K whole on 128-wide tiles up to 65 row tiles (130 blocks of
  // 256 columns would leave SMs idle), a dynamic M's 256 past them.
  EXPECT_EQ(versions(dynamic, 512, 4096),
            "128:16/128 512:8/128 1024:4/128 1792:2/128 8320:1/128 ");
  // 32 tile columns: 4 parts for one row tile, 128-wide tiles up to 8.
  EXPECT_EQ(versions(dynamic, 4096, 4096), "128:4/128 1024:1/128 ");
  // 8 K steps: no split, only the tile width.
  EXPECT_EQ(versions(dynamic, 512, 512), "8320:1/128 ");
  // N below 256 is planned 128 wide for any M; a static M has its plan.
  EXPECT_EQ(versions(dynamic, 128, 512), "");
  EXPECT_EQ(versions(97, 512, 4096), "");
}
