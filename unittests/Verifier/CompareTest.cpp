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

// f32 outputs of tf32 products (10-bit mantissas) get f16's allowance for
// sums: a 0.1 % error passes, 3 % does not; plain f32 stays tight.
TEST_F(CompareTest, Tf32OutputsGetHalfPrecisionTolerance) {
  HostBuffer want = reference();
  Type f32Type = Builder(&ctx).getF32Type();
  Tolerance tf32 = getDefaultTolerance(f32Type, /*reductionLength=*/1024,
                                       /*tf32=*/true);
  EXPECT_EQ(tf32.atol, 1e-2);
  EXPECT_EQ(tf32.rtol, 1e-2);
  EXPECT_EQ(getDefaultTolerance(f32Type, 1024).atol, 1e-4);
  // Only f32 changes: f16 (an elementwise f16 kernel beside a tf32 matmul),
  // f64 and integers are not computed as tf32.
  EXPECT_EQ(getDefaultTolerance(Builder(&ctx).getF16Type(), 1, true).atol,
            3e-3);
  EXPECT_EQ(getDefaultTolerance(Builder(&ctx).getF64Type(), 1024, true).atol,
            1e-4);
  EXPECT_EQ(getDefaultTolerance(Builder(&ctx).getI32Type(), 1024, true).atol,
            0);
  std::vector<float> near = valuesOf(want), far = valuesOf(want);
  for (float &v : near)
    v *= 1.001f;
  for (float &v : far)
    v *= 1.03f;
  EXPECT_TRUE(compareBuffers(f32(near, {3, 4}), want, tf32).ok);
  EXPECT_FALSE(compareBuffers(f32(near, {3, 4}), want,
                              getDefaultTolerance(f32Type, 1024))
                   .ok);
  EXPECT_FALSE(compareBuffers(f32(far, {3, 4}), want, tf32).ok);
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
  // A 1 % error (ten f16 units in the last place) is wrong for f16 without
  // reductions, within reach of another summation order with them; bf16's
  // unit in the last place is 2^-7.
  std::vector<float> scaled = values;
  for (float &v : scaled)
    v *= 1.01f;
  EXPECT_FALSE(compareBuffers(f32(scaled, {3, 4}), want, half).ok);
  EXPECT_TRUE(compareBuffers(f32(scaled, {3, 4}), want,
                             getDefaultTolerance(Builder(&ctx).getF16Type(),
                                                 /*reductionLength=*/64))
                  .ok);
  EXPECT_TRUE(compareBuffers(f32(scaled, {3, 4}), want,
                             getDefaultTolerance(Builder(&ctx).getBF16Type()))
                  .ok);
  // bf16: two units in the last place (16.5 for 16.75 after a chain of bf16
  // roundings, among outputs of about 1, so the absolute part is small)
  // pass; a 3 % error does not.
  Tolerance bf16 = getDefaultTolerance(Builder(&ctx).getBF16Type());
  std::vector<float> ones(100, 1.0f), gotOnes(100, 1.0f);
  ones[7] = 16.75f;
  gotOnes[7] = 16.5f;
  EXPECT_TRUE(compareBuffers(f32(gotOnes, {100}), f32(ones, {100}), bf16).ok);
  std::vector<float> far = values;
  for (float &v : far)
    v *= 1.03f;
  EXPECT_FALSE(compareBuffers(f32(far, {3, 4}), want, bf16).ok);
}

TEST_F(CompareTest, ToleranceScalesWithOutputSizeAndReductionLength) {
  // Outputs of root mean square 100: the f32 tolerance is 1e-2 absolute.
  std::vector<float> big(12);
  for (int i = 0; i < 12; ++i)
    big[i] = (i % 2 ? 100.0f : -100.0f) + i;
  big[5] = 0.25f;
  HostBuffer want = f32(big, {3, 4});
  double atol = getAbsoluteTolerance(want, tol)(0);
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
  EXPECT_NEAR(getAbsoluteTolerance(want, longSum)(0), 4 * atol, 1e-9);
  EXPECT_NEAR(
      getAbsoluteTolerance(
          want, getDefaultTolerance(Builder(&ctx).getF32Type(), 100))(0),
      atol, 1e-12);
  // Outputs of root mean square below 1 are held to their own size too: no
  // absolute floor.
  EXPECT_NEAR(getAbsoluteTolerance(f32({0.5f, -0.25f, 0.75f}, {3}), tol)(0),
              1e-4 * std::sqrt((0.25 + 0.0625 + 0.5625) / 3), 1e-12);
}

// Probabilities of a softmax over 16384 columns (about 6e-5 each): a result
// off by half, or by 1e-3, is rejected; rounding noise is accepted, with its
// margin reported.
TEST_F(CompareTest, SmallOutputsAreCheckedAtTheirOwnScale) {
  int64_t rows = 4, cols = 16384;
  std::vector<float> p(rows * cols);
  std::vector<double> sums(rows, 0);
  // Rows shifted by 0.01 each: their sums of exponentials differ by 1 %.
  auto x = [&](int64_t r, int64_t c) {
    return std::sin(double(r * cols + c)) + 0.01 * r;
  };
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c)
      sums[r] += std::exp(x(r, c));
    for (int64_t c = 0; c < cols; ++c)
      p[r * cols + c] = float(std::exp(x(r, c)) / sums[r]);
  }
  HostBuffer want = f32(p, {rows, cols});
  Tolerance softmax = getDefaultTolerance(Builder(&ctx).getF32Type(), cols);
  auto scaled = [&](double factor) {
    std::vector<float> out = p;
    for (float &v : out)
      v = float(v * factor);
    return compareBuffers(f32(out, {rows, cols}), want, softmax);
  };
  Comparison half = scaled(0.5);
  EXPECT_FALSE(half.ok);
  EXPECT_GT(half.margin, 100);
  EXPECT_FALSE(scaled(1 + 1e-3).ok);
  Comparison noise = scaled(1 + 1e-6);
  EXPECT_TRUE(noise.ok) << noise.reason;
  EXPECT_GT(noise.margin, 0);
  EXPECT_LT(noise.margin, 0.1);
  // A row normalised by another row's sum.
  std::vector<float> swapped = p;
  for (int64_t c = 0; c < cols; ++c)
    swapped[cols + c] = float(std::exp(x(1, c)) / sums[0]);
  EXPECT_FALSE(compareBuffers(f32(swapped, {rows, cols}), want, softmax).ok);
}

// Rows of different sizes: each row of 32 or more elements is held to its
// own scale, so an error that is small beside the large rows is still caught
// in a small one.
TEST_F(CompareTest, EachRowHasItsOwnScale) {
  std::vector<float> values(2 * 64);
  for (int i = 0; i < 64; ++i) {
    values[i] = 10 * std::sin(i + 1.0f);
    values[64 + i] = 0.02f * std::cos(i + 1.0f);
  }
  HostBuffer want = f32(values, {2, 64});
  AbsoluteTolerance atol = getAbsoluteTolerance(want, tol);
  EXPECT_EQ(atol.groupSize, 64);
  EXPECT_GT(atol(0), 5e-4);
  EXPECT_LT(atol(64), 2e-6);
  std::vector<float> got = values;
  got[70] += 2e-4f; // 1 % of the small row's values
  EXPECT_FALSE(compareBuffers(f32(got, {2, 64}), want, tol).ok);
  // Short rows share the output's scale.
  EXPECT_EQ(getToleranceGroupSize({64, 8}), 512);
  EXPECT_EQ(getToleranceGroupSize({5}), 5);
  EXPECT_EQ(getToleranceGroupSize({3, 32}), 32);
}

// A row that is nearly zero (a sum that cancels) keeps a thousandth of the
// output's scale: rounding noise there is not a mismatch.
TEST_F(CompareTest, NearlyZeroRowsKeepAFractionOfTheOutputScale) {
  std::vector<float> values(2 * 32);
  for (int i = 0; i < 32; ++i) {
    values[i] = 10 * std::sin(i + 1.0f);
    values[32 + i] = 1e-9f * std::cos(i + 1.0f);
  }
  HostBuffer want = f32(values, {2, 32});
  AbsoluteTolerance atol = getAbsoluteTolerance(want, tol);
  EXPECT_NEAR(atol(32), 1e-4 * 1e-3 * std::sqrt([&] {
                          double s = 0;
                          for (float v : values)
                            s += double(v) * v;
                          return s / 64;
                        }()),
              1e-12);
  std::vector<float> got = values;
  got[40] += 1e-7f;
  EXPECT_TRUE(compareBuffers(f32(got, {2, 32}), want, tol).ok);
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
  // i1 poison is a byte that is neither 0 nor 1: it never reads as a value
  // a kernel could have written.
  uint8_t bools[3];
  fillPoison(b.getI1Type(), 3, bools);
  HostBuffer poisoned, written;
  poisoned.element = written.element = b.getI1Type();
  poisoned.shape = written.shape = {3};
  poisoned.bytes.assign(bools, bools + 3);
  written.bytes = {1, 1, 1};
  EXPECT_NE(getElement(poisoned, 0), 1);
  EXPECT_NE(getElement(poisoned, 0), 0);
  Comparison c =
      compareBuffers(poisoned, written, getDefaultTolerance(b.getI1Type()));
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(std::isinf(c.margin));
}

} // namespace
