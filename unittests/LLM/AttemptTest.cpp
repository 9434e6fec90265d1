//===- AttemptTest.cpp - Rounds of a conversation in a report -------------===//

#include "QiMeng/LLM/Attempt.h"

#include "gtest/gtest.h"

using namespace mlir::qimeng::llm;

namespace {

TEST(Attempt, RecordsOutcomeDetailAndTime) {
  nlohmann::json attempts = nlohmann::json::array();
  Attempt first(1);
  first.json()["tokens"] = 12;
  first.finish(attempts, "rejected", "it does not parse");
  Attempt second(2);
  second.finish(attempts, "verified", "");

  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0]["round"], 1);
  EXPECT_EQ(attempts[0]["outcome"], "rejected");
  EXPECT_EQ(attempts[0]["detail"], "it does not parse");
  EXPECT_EQ(attempts[0]["tokens"], 12);
  EXPECT_GE(attempts[0]["seconds"].get<double>(), 0.0);
  EXPECT_EQ(attempts[1]["round"], 2);
  EXPECT_EQ(attempts[1]["outcome"], "verified");
  // An empty detail is left out, not written as "".
  EXPECT_FALSE(attempts[1].contains("detail"));
}

TEST(Attempt, DetailUnderTheCallersKey) {
  nlohmann::json attempts = nlohmann::json::array();
  Attempt attempt(3);
  attempt.finish(attempts, "failed", "MISMATCH", "error");
  EXPECT_EQ(attempts[0]["error"], "MISMATCH");
  EXPECT_FALSE(attempts[0].contains("detail"));
}

TEST(Attempt, RepairMessageNamesTheAnswerAndItsField) {
  EXPECT_EQ(repairMessage("module", "line 2: import of os", "python"),
            "Your module was rejected: line 2: import of os\nReply again "
            "with the complete, corrected module as {\"python\": \"...\"}.");
}

} // namespace
