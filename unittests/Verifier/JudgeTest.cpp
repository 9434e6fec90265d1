//===- JudgeTest.cpp - Anti-cheat rules of a verification trial -----------===//
//
// judgeTrial sees the candidate's and the reference's runs on the same
// inputs. Planted bad candidates (modified input, NaN poison left behind,
// zeros, a constant, a shifted region, half-precision rounding, a missing
// result) must each fail the trial with a reason; a correct one passes.
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

class JudgeTest : public ::testing::Test {
protected:
  HostBuffer f32(const std::vector<float> &values) {
    HostBuffer buffer;
    buffer.element = Builder(&ctx).getF32Type();
    buffer.shape = {static_cast<int64_t>(values.size())};
    buffer.bytes.resize(values.size() * 4);
    std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
    return buffer;
  }
  /// relu(x) = y: argument 0 the input, argument 1 the output.
  RunResult reference() {
    RunResult run;
    run.args = {f32(input), f32(output)};
    return run;
  }
  RunResult candidate(std::vector<float> out) {
    RunResult run;
    run.args = {f32(input), f32(out)};
    return run;
  }
  TrialReport judge(const RunResult &got) {
    return judgeTrial(got, reference(), outputs, std::nullopt);
  }

  MLIRContext ctx;
  std::vector<float> input = {-1.5f, 0.25f, 2, -0.5f, 3, 0.75f};
  std::vector<float> output = {0, 0.25f, 2, 0, 3, 0.75f};
  SmallVector<bool> outputs = {false, true};
};

TEST_F(JudgeTest, ACorrectCandidatePasses) {
  TrialReport trial = judge(candidate(output));
  EXPECT_TRUE(trial.ok) << trial.reason;
  ASSERT_EQ(trial.outputs.size(), 1u);
  EXPECT_EQ(trial.outputs[0].name, "arg1");
}

TEST_F(JudgeTest, AModifiedInputFails) {
  // Right output, but the kernel wrote into its input.
  RunResult got = candidate(output);
  got.changedInputs.push_back(0);
  TrialReport trial = judge(got);
  EXPECT_FALSE(trial.ok);
  EXPECT_EQ(trial.reason, "input arg0 was modified");
}

TEST_F(JudgeTest, PoisonLeftBehindFails) {
  std::vector<float> out = output;
  out[4] = std::nanf(""); // an element the kernel never wrote
  TrialReport trial = judge(candidate(out));
  EXPECT_FALSE(trial.ok);
  EXPECT_EQ(trial.reason, "arg1: at [4]: got nan, expected 3");
}

TEST_F(JudgeTest, ZerosAndConstantsFail) {
  EXPECT_FALSE(judge(candidate(std::vector<float>(6, 0))).ok);
  EXPECT_FALSE(judge(candidate(std::vector<float>(6, 1))).ok);
  // A constant within a (very loose) tolerance is still a cheat.
  TrialReport loose = judgeTrial(candidate(std::vector<float>(6, 1)),
                                 reference(), outputs, Tolerance{10, 0});
  EXPECT_FALSE(loose.ok);
  EXPECT_NE(loose.reason.find("constant output"), std::string::npos);
}

TEST_F(JudgeTest, AShiftedRegionFails) {
  std::vector<float> out = output;
  std::rotate(out.begin() + 3, out.begin() + 4, out.end());
  TrialReport trial = judge(candidate(out));
  EXPECT_FALSE(trial.ok);
  EXPECT_EQ(trial.outputs[0].comparison.firstMismatch, 3);
}

TEST_F(JudgeTest, HalfPrecisionRoundingFailsAtFp32Tolerance) {
  std::vector<float> out = output;
  for (float &v : out)
    v = v + v * 4e-3f; // f16-sized relative error
  EXPECT_FALSE(judge(candidate(out)).ok);
  // Accepted when the caller widens the tolerance to f16's.
  EXPECT_TRUE(
      judgeTrial(candidate(out), reference(), outputs, Tolerance{1e-2, 1e-2})
          .ok);
}

TEST_F(JudgeTest, AMissingResultFails) {
  RunResult want = reference();
  want.results.push_back(f32(output));
  TrialReport trial = judgeTrial(candidate(output), want, outputs, {});
  EXPECT_FALSE(trial.ok);
  EXPECT_EQ(trial.reason, "the number of results differs from the reference");
}

TEST_F(JudgeTest, AResultThatIsTheOutputArgumentIsComparedOnce) {
  // Destination-passing style: the function returns argument 1.
  auto returningOutput = [](RunResult run) {
    run.results.emplace_back();
    run.resultAliases.push_back(1);
    return run;
  };
  RunResult want = returningOutput(reference());
  TrialReport trial =
      judgeTrial(returningOutput(candidate(output)), want, outputs, {});
  EXPECT_TRUE(trial.ok) << trial.reason;
  ASSERT_EQ(trial.outputs.size(), 1u);
  EXPECT_EQ(trial.outputs[0].name, "arg1");

  // A candidate that returns a buffer of its own instead is compared with
  // the reference's output argument.
  RunResult own = candidate(output);
  own.results.push_back(f32(std::vector<float>(6, 0)));
  trial = judgeTrial(own, want, outputs, {});
  EXPECT_FALSE(trial.ok);
  ASSERT_EQ(trial.outputs.size(), 2u);
  EXPECT_EQ(trial.outputs[1].name, "result0");
  EXPECT_FALSE(trial.outputs[1].comparison.ok);
  own.results[0] = f32(output);
  EXPECT_TRUE(judgeTrial(own, want, outputs, {}).ok);
}

TEST_F(JudgeTest, TheFirstFailureIsTheReasonAndAllOutputsAreReported) {
  RunResult got = candidate(std::vector<float>(6, 0));
  got.changedInputs.push_back(0);
  TrialReport trial = judge(got);
  EXPECT_EQ(trial.reason, "input arg0 was modified");
  EXPECT_EQ(trial.outputs.size(), 1u);
  EXPECT_FALSE(trial.outputs[0].comparison.ok);
}

} // namespace
