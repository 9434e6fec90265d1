//===- RowGroupsTest.cpp - Threads per row of a row-wise kernel -----------===//

#include "QiMeng/Planner/RowGroups.h"

#include "mlir/IR/BuiltinTypes.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// The H200's profile (132 SMs, warps of 32, 1024 threads per block).
TargetProfile h200() { return *lookupTargetProfile("sm_90"); }

RowGroup makeGroup(SmallVector<int64_t> rows, int64_t rowLength,
                   int64_t elementBytes = 4) {
  RowGroup group;
  group.rows = std::move(rows);
  group.rowLength = rowLength;
  group.elementBytes = elementBytes;
  return group;
}

TEST(RowGroupsTest, ManyRowsTakeAWarpEach) {
  // 2112 rows (16 warps per SM) or more, whatever their length.
  EXPECT_EQ(getRowLanes(makeGroup({4096}, 393216), h200()), 32);
  EXPECT_EQ(getRowLanes(makeGroup({2112}, 1000), h200()), 32);
  EXPECT_EQ(getRowLanes(makeGroup({16, 256}, 64), h200()), 32);
}

TEST(RowGroupsTest, ShortRowsTakeAThreadEach) {
  // Shorter than a warp: a thread per row, few rows or many.
  EXPECT_EQ(getRowLanes(makeGroup({100, 5120}, 8), h200()), 1);
  EXPECT_EQ(getRowLanes(makeGroup({13}, 31), h200()), 1);
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic}, 5), h200()), 1);
  EXPECT_TRUE(isWorthOneKernel(makeGroup({100, 5120}, 8), h200()));
  // A warp's length takes a warp.
  EXPECT_EQ(getRowLanes(makeGroup({100, 5120}, 32), h200()), 32);
}

TEST(RowGroupsTest, DynamicRowsTakeThreadsByTheRowLength) {
  // 16 elements per thread or more, from a warp to 256 threads.
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic}, 5000), h200()),
            256);
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic}, 3072), h200()),
            128);
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic}, 1000), h200()), 32);
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic}, 100), h200()), 32);
  EXPECT_EQ(getRowLanes(makeGroup({8, ShapedType::kDynamic}, 393216), h200()),
            256);
  // A dynamic row length too: a warp.
  EXPECT_EQ(getRowLanes(makeGroup({ShapedType::kDynamic},
                                  ShapedType::kDynamic),
                        h200()),
            32);
}

TEST(RowGroupsTest, FewRowsTakeABlockEach) {
  // 16 rows: 1024 threads each would be 512 per SM; a 16384-long row gives
  // each of 1024 threads 16 elements.
  EXPECT_EQ(getRowLanes(makeGroup({16}, 16384), h200()), 1024);
  // Short rows cap the threads at 8 elements each: 1000 / 8 -> 64.
  EXPECT_EQ(getRowLanes(makeGroup({16}, 1000), h200()), 64);
  // 300 rows need 226 threads each for 512 per SM: 256.
  EXPECT_EQ(getRowLanes(makeGroup({300}, 4096), h200()), 256);
  // Rows too short for more than a warp stay with one.
  EXPECT_EQ(getRowLanes(makeGroup({16}, 100), h200()), 32);
  // A dynamic row length: the threads the rows need.
  EXPECT_EQ(getRowLanes(makeGroup({64}, ShapedType::kDynamic), h200()),
            1024);
}

TEST(RowGroupsTest, FewVeryLongRowsAreSplit) {
  // Above 512 KB per row a block would stream it too long: split.
  EXPECT_EQ(getRowLanes(makeGroup({16}, 262144), h200()), 0);
  EXPECT_FALSE(isWorthOneKernel(makeGroup({16}, 262144), h200()));
  // The same row length in f16 is 512 KB: one kernel.
  EXPECT_EQ(getRowLanes(makeGroup({16}, 262144, 2), h200()), 1024);
  EXPECT_TRUE(isWorthOneKernel(makeGroup({16}, 16384), h200()));
}

} // namespace
