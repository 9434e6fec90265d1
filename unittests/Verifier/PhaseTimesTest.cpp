//===- PhaseTimesTest.cpp - Seconds per phase of a verification -----------===//

#include "QiMeng/Verifier/PhaseTimes.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mlir::qimeng;

namespace {

TEST(PhaseTimesTest, TotalsAddUpPerPhaseAndStartAfreshWhenTaken) {
  takePhaseSeconds();
  addPhaseSeconds("fill", 0.25);
  addPhaseSeconds("fill", 0.5);
  {
    PhaseTimer timer(std::string(kReferencePhasePrefix) + "call");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  llvm::json::Object totals = takePhaseSeconds();
  EXPECT_EQ(totals.size(), 2u);
  EXPECT_DOUBLE_EQ(totals.getNumber("fill").value_or(0), 0.75);
  double call = totals.getNumber("reference:call").value_or(0);
  EXPECT_GE(call, 0.015);
  EXPECT_LT(call, 5.0);
  EXPECT_TRUE(takePhaseSeconds().empty());
}

} // namespace
