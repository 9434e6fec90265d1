//===- ReportTest.cpp - Timing statistics and JSON reports ----------------===//

#include "QiMeng/Verifier/Report.h"
#include "QiMeng/Verifier/VerifyStep.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

TEST(ReportTest, TimingStatistics) {
  Timing t = summarizeSamples({4, 1, 3, 2});
  EXPECT_EQ(t.runs, 4u);
  EXPECT_DOUBLE_EQ(t.minMs, 1);
  EXPECT_DOUBLE_EQ(t.maxMs, 4);
  EXPECT_DOUBLE_EQ(t.medianMs, 2.5);
  EXPECT_DOUBLE_EQ(t.meanMs, 2.5);
  EXPECT_DOUBLE_EQ(t.stddevMs, std::sqrt(1.25));
  EXPECT_DOUBLE_EQ(summarizeSamples({5, 1, 3}).medianMs, 3);
  EXPECT_EQ(summarizeSamples({}).runs, 0u);
}

TEST(ReportTest, TimingRoundTripsThroughJSON) {
  Timing t = summarizeSamples({0.5, 0.25, 0.75});
  t.warmup = 10;
  t.flushBytes = 100 << 20;
  llvm::json::Value value(toJSON(t));
  std::optional<Timing> back = timingFromJSON(&value);
  ASSERT_TRUE(back.has_value());
  EXPECT_DOUBLE_EQ(back->medianMs, 0.5);
  EXPECT_DOUBLE_EQ(back->minMs, 0.25);
  EXPECT_EQ(back->runs, 3u);
  EXPECT_EQ(back->warmup, 10u);
  EXPECT_EQ(back->flushBytes, 100 << 20);
  llvm::json::Value notTiming(llvm::json::Object{{"runs", 3}});
  EXPECT_FALSE(timingFromJSON(&notTiming).has_value());
  EXPECT_FALSE(timingFromJSON(nullptr).has_value());
}

TEST(ReportTest, VerifyReportJSONSaysWhatFailedWhere) {
  VerifyReport report;
  report.ok = false;
  TrialReport trial;
  trial.seed = 7;
  trial.ok = false;
  trial.reason = "arg1: at [0, 3]: got nan, expected 1";
  Comparison c;
  c.ok = false;
  c.maxAbsError = INFINITY; // JSON has no infinity: null
  c.firstMismatch = 3;
  c.reason = "at [0, 3]: got nan, expected 1";
  trial.outputs.push_back({"arg1", c});
  report.trials.push_back(trial);
  report.candidateTiming = summarizeSamples({0.1});
  report.referenceTiming = summarizeSamples({2.0});
  report.speedup = 20;
  report.suspiciousSpeedup = true;
  llvm::json::Object json = toJSON(report);
  EXPECT_EQ(json.getBoolean("ok"), false);
  EXPECT_EQ(json.getBoolean("suspicious_speedup"), true);
  const llvm::json::Array *trials = json.getArray("trials");
  ASSERT_TRUE(trials && trials->size() == 1);
  const llvm::json::Object *first = (*trials)[0].getAsObject();
  EXPECT_EQ(first->getInteger("seed"), 7);
  EXPECT_EQ(first->getString("reason"), trial.reason);
  const llvm::json::Object *output =
      (*first->getArray("outputs"))[0].getAsObject();
  EXPECT_EQ(output->getString("name"), "arg1");
  EXPECT_EQ(output->getInteger("first_mismatch"), 3);
  ASSERT_NE(output->get("max_abs_error"), nullptr);
  EXPECT_EQ(*output->get("max_abs_error"), llvm::json::Value(nullptr));
  const llvm::json::Object *timing = json.getObject("timing");
  ASSERT_NE(timing, nullptr);
  EXPECT_EQ(timingFromJSON(timing->get("reference"))->medianMs, 2.0);
}

TEST(ReportTest, WriteJSONWritesAWholeDocument) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("qimeng-report", "json", path));
  llvm::json::Object doc{{"status", "pass"}, {"n", 3}};
  ASSERT_FALSE(
      static_cast<bool>(writeJSON(path, llvm::json::Value(std::move(doc)))));
  auto text = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(static_cast<bool>(text));
  llvm::Expected<llvm::json::Value> back =
      llvm::json::parse((*text)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(back->getAsObject()->getString("status"), "pass");
  llvm::sys::fs::remove(path);
}

} // namespace
