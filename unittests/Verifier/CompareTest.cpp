//===- CompareTest.cpp - Comparison and anti-cheat rules ------------------===//
//
// Planted bad outputs against a reference: each must be rejected with a
// reason; a correct one (within tolerance) accepted.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Verifier/Verifier.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

class CompareTest : public ::testing::Test {
protected:
  HostBuffer f32(std::vector<float> values, SmallVector<int64_t> shape) {
    HostBuffer buffer;
    buffer.element = Builder(&ctx).getF32Type();
    buffer.shape = shape;
    buffer.bytes.resize(values.size() * 4);
    std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
    return buffer;
  }
  HostBuffer reference() {
    std::vector<float> values(12);
    for (int i = 0; i < 12; ++i)
      values[i] = std::sin(i + 1.0f) * 3;
    return f32(values, {3, 4});
  }
  std::vector<float> valuesOf(const HostBuffer &b) {
    std::vector<float> out(b.bytes.size() / 4);
    std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
    return out;
  }
  // The context first: members are initialized in declaration order.
  MLIRContext ctx;
  Tolerance tol = getDefaultTolerance(Builder(&ctx).getF32Type());
};

TEST_F(CompareTest, AcceptsResultsWithinTolerance) {
  HostBuffer want = reference();
  std::vector<float> values = valuesOf(want);
  for (float &v : values)
    v *= 1 + 2e-5f; // accumulation-order noise
  Comparison c = compareBuffers(f32(values, {3, 4}), want, tol);
  EXPECT_TRUE(c.ok) << c.reason;
  EXPECT_GT(c.maxAbsError, 0);
  EXPECT_LT(c.maxRelError, 1e-4);
  EXPECT_EQ(c.firstMismatch, -1);
}

TEST_F(CompareTest, RejectsAllZerosAndConstants) {
  HostBuffer want = reference();
  Comparison zeros = compareBuffers(f32(std::vector<float>(12, 0), {3, 4}),
                                    want, {1e9, 1e9}); // even if "close"
  EXPECT_FALSE(zeros.ok);
  EXPECT_NE(zeros.reason.find("constant output"), std::string::npos);
  Comparison constant =
      compareBuffers(f32(std::vector<float>(12, 0.5f), {3, 4}), want, tol);
  EXPECT_FALSE(constant.ok);
}

TEST_F(CompareTest, RejectsNaNPoisonLeftBehind) {
  HostBuffer want = reference();
  std::vector<float> values = valuesOf(want);
  values[7] = std::nanf("");
  Comparison c = compareBuffers(f32(values, {3, 4}), want, tol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.firstMismatch, 7);
  EXPECT_NE(c.reason.find("at [1, 3]"), std::string::npos) << c.reason;
}

TEST_F(CompareTest, RejectsAnOffByOneRegion) {
  HostBuffer want = reference();
  std::vector<float> values = valuesOf(want);
  // The last row shifted by one element (a wrong tile offset).
  for (int i = 8; i < 11; ++i)
    values[i] = values[i + 1];
  Comparison c = compareBuffers(f32(values, {3, 4}), want, tol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.firstMismatch, 8);
}

TEST_F(CompareTest, RejectsFp16LevelRoundingAtFp32Tolerance) {
  HostBuffer want = reference();
  std::vector<float> values = valuesOf(want);
  for (float &v : values)
    v += std::copysign(v, 1.0f) * 1e-3f; // half-precision-sized error
  EXPECT_FALSE(compareBuffers(f32(values, {3, 4}), want, tol).ok);
  // The same error passes at the f16/bf16 tolerance.
  Tolerance half = getDefaultTolerance(Builder(&ctx).getF16Type());
  EXPECT_TRUE(compareBuffers(f32(values, {3, 4}), want, half).ok);
}

TEST_F(CompareTest, ToleranceScalesWithOutputSizeAndReductionLength) {
  // Outputs of root mean square 100: the f32 tolerance is 1e-2 absolute.
  std::vector<float> big(12);
  for (int i = 0; i < 12; ++i)
    big[i] = (i % 2 ? 100.0f : -100.0f) + i;
  big[5] = 0.25f;
  HostBuffer want = f32(big, {3, 4});
  double atol = getAbsoluteTolerance(want, tol);
  EXPECT_GT(atol, 0.9e-2);
  EXPECT_LT(atol, 1.1e-2);
  // A rounding-sized error on the near-zero element passes scaled...
  std::vector<float> values = big;
  values[5] += 5e-3f;
  EXPECT_TRUE(compareBuffers(f32(values, {3, 4}), want, tol).ok);
  // ...and not with the plain tolerance, nor when it is a real error.
  Comparison plain = compareBuffers(f32(values, {3, 4}), want, {1e-4, 1e-4});
  EXPECT_FALSE(plain.ok);
  EXPECT_NE(plain.reason.find("got 0.254999995, expected 0.25 (allowed "
                              "error 0.000125)"),
            std::string::npos)
      << plain.reason;
  values[5] = big[5] + 0.5f;
  EXPECT_FALSE(compareBuffers(f32(values, {3, 4}), want, tol).ok);
  // Sums longer than 4096 terms widen it by the square root of the ratio.
  Tolerance longSum =
      getDefaultTolerance(Builder(&ctx).getF32Type(), 16 * 4096);
  EXPECT_NEAR(getAbsoluteTolerance(want, longSum), 4 * atol, 1e-9);
  EXPECT_NEAR(getAbsoluteTolerance(
                  want, getDefaultTolerance(Builder(&ctx).getF32Type(), 100)),
              atol, 1e-12);
  // Outputs of root mean square below 1 keep the element type's own.
  EXPECT_DOUBLE_EQ(getAbsoluteTolerance(f32({0.5f, -0.25f, 0.75f}, {3}), tol),
                   1e-4);
}

TEST_F(CompareTest, LargeBuffersAreComparedInBlocksWithTheSameVerdicts) {
  // Several million elements: compared in parallel blocks, with the first
  // mismatch, the largest errors and the constant check over all of them.
  int64_t count = (int64_t(1) << 22) + 5;
  std::vector<float> want(count);
  for (int64_t i = 0; i < count; ++i)
    want[i] = float(i % 1000) / 500 - 1;
  HostBuffer expected = f32(want, {count});
  std::vector<float> got = want;
  got[count - 2] += 0.5f;                      // in the last block
  got[(int64_t(1) << 21) + 3] = std::nanf(""); // in an earlier one
  Comparison c = compareBuffers(f32(got, {count}), expected, tol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.firstMismatch, (int64_t(1) << 21) + 3);
  EXPECT_NEAR(c.maxAbsError, 0.5, 1e-6);
  EXPECT_NE(c.reason.find("got nan"), std::string::npos) << c.reason;
  // Constant but for one element in the last block: not constant.
  std::vector<float> almost(count, 0.25f);
  almost[count - 1] = 0.5f;
  Comparison nearly = compareBuffers(f32(almost, {count}), expected, {9, 9});
  EXPECT_TRUE(nearly.ok) << nearly.reason;
  almost[count - 1] = 0.25f;
  Comparison constant = compareBuffers(f32(almost, {count}), expected, {9, 9});
  EXPECT_FALSE(constant.ok);
  EXPECT_NE(constant.reason.find("constant output"), std::string::npos);
}

TEST_F(CompareTest, RejectsWrongShapeOrType) {
  HostBuffer want = reference();
  EXPECT_FALSE(compareBuffers(f32(valuesOf(want), {4, 3}), want, tol).ok);
  HostBuffer ints = want;
  ints.element = Builder(&ctx).getI32Type();
  EXPECT_FALSE(compareBuffers(ints, want, tol).ok);
}

TEST_F(CompareTest, IntegersAreExact) {
  HostBuffer a, b;
  a.element = b.element = Builder(&ctx).getI64Type();
  a.shape = b.shape = {3};
  int64_t x[3] = {1, -2, 3}, y[3] = {1, -2, 4};
  a.bytes.assign(reinterpret_cast<char *>(x), reinterpret_cast<char *>(x) + 24);
  b.bytes.assign(reinterpret_cast<char *>(y), reinterpret_cast<char *>(y) + 24);
  Tolerance exact = getDefaultTolerance(a.element);
  EXPECT_EQ(exact.atol, 0);
  EXPECT_TRUE(compareBuffers(a, a, exact).ok);
  Comparison c = compareBuffers(a, b, exact);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.firstMismatch, 2);
  EXPECT_EQ(getElement(a, 1), -2);
}

TEST_F(CompareTest, PoisonIsNaNForFloatsAndAPatternForIntegers) {
  Builder b(&ctx);
  std::vector<uint16_t> half(4);
  fillPoison(b.getBF16Type(), 4, half.data());
  HostBuffer buffer;
  buffer.element = b.getBF16Type();
  buffer.shape = {4};
  buffer.bytes.assign(reinterpret_cast<char *>(half.data()),
                      reinterpret_cast<char *>(half.data()) + 8);
  EXPECT_TRUE(std::isnan(getElement(buffer, 3)));
  int32_t ints[2];
  fillPoison(b.getI32Type(), 2, ints);
  EXPECT_EQ(ints[1], 0x7f7f7f7f);
}

} // namespace
