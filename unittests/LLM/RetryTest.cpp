//===- RetryTest.cpp - When the LLM client retries, and how long it waits -===//

#include "QiMeng/LLM/Client.h"

#include "gtest/gtest.h"

using namespace mlir::qimeng::llm;

namespace {

RetryDecision decide(int status, unsigned attempt, double jitter = 1,
                     llvm::StringRef retryAfter = "",
                     llvm::StringRef retryAfterMs = "",
                     llvm::StringRef body = "") {
  return decideRetry(status, body, retryAfter, retryAfterMs, attempt,
                     /*maxAttempts=*/4, /*baseDelay=*/1, /*maxDelay=*/10,
                     jitter);
}

TEST(RetryTest, TransientStatusesAreRetriedOthersAreNot) {
  for (int status : {0, 408, 409, 429, 500, 502, 503, 504, 529})
    EXPECT_TRUE(decide(status, 1).retry) << status;
  for (int status : {400, 401, 403, 404, 422}) {
    RetryDecision d = decide(status, 1);
    EXPECT_FALSE(d.retry) << status;
    EXPECT_EQ(d.reason, "not a transient error (not retried)");
  }
}

TEST(RetryTest, ExponentialBackoffWithJitterAndACap) {
  EXPECT_DOUBLE_EQ(decide(500, 1).delaySeconds, 1);
  EXPECT_DOUBLE_EQ(decide(500, 2).delaySeconds, 2);
  EXPECT_DOUBLE_EQ(decide(500, 3).delaySeconds, 4);
  // Jitter scales into [0.5, 1] of the step.
  EXPECT_DOUBLE_EQ(decide(500, 3, /*jitter=*/0).delaySeconds, 2);
  EXPECT_DOUBLE_EQ(decide(500, 3, /*jitter=*/0.5).delaySeconds, 3);
  // The cap.
  RetryDecision capped = decideRetry(500, "", "", "", 8, 10, 1, 10, 1);
  EXPECT_TRUE(capped.retry);
  EXPECT_DOUBLE_EQ(capped.delaySeconds, 10);
}

TEST(RetryTest, RetryAfterHeadersWinUpToTheCap) {
  EXPECT_DOUBLE_EQ(decide(429, 1, 1, "7").delaySeconds, 7);
  EXPECT_DOUBLE_EQ(decide(429, 1, 1, "7", "250").delaySeconds, 0.25);
  EXPECT_DOUBLE_EQ(decide(429, 1, 1, "3600").delaySeconds, 10);
  // An HTTP date (not seconds) falls back to the backoff.
  EXPECT_DOUBLE_EQ(
      decide(429, 2, 1, "Wed, 21 Oct 2026 07:28:00 GMT").delaySeconds, 2);
}

TEST(RetryTest, GivesUpAfterTheLastAttemptAndOnAnExhaustedQuota) {
  RetryDecision last = decide(503, 4);
  EXPECT_FALSE(last.retry);
  EXPECT_EQ(last.reason, "gave up after 4 attempts");
  RetryDecision quota =
      decide(429, 1, 1, "1", "", R"({"error":{"code":"insufficient_quota"}})");
  EXPECT_FALSE(quota.retry);
  EXPECT_NE(quota.reason.find("quota is exhausted"), std::string::npos);
}

TEST(ProvidersTest, RequestBodiesSendOnlyWhatIsSet) {
  Request request;
  request.messages = {{"system", "be brief"}, {"user", "hi"}};
  nlohmann::json openai = buildRequestBody(Provider::OpenAI, "m", request);
  EXPECT_EQ(openai["messages"].size(), 2u);
  EXPECT_FALSE(openai.contains("temperature"));
  EXPECT_FALSE(openai.contains("seed"));
  EXPECT_FALSE(openai.contains("max_tokens"));
  EXPECT_FALSE(openai.contains("response_format"));
  request.temperature = 0.2;
  request.seed = 7;
  openai = buildRequestBody(Provider::OpenAI, "m", request);
  EXPECT_EQ(openai["temperature"], 0.2);
  EXPECT_EQ(openai["seed"], 7);
  nlohmann::json anthropic =
      buildRequestBody(Provider::Anthropic, "c", request);
  EXPECT_EQ(anthropic["system"], "be brief");
  EXPECT_EQ(anthropic["messages"].size(), 1u);
  EXPECT_EQ(anthropic["max_tokens"], 4096);
  EXPECT_FALSE(anthropic.contains("seed")); // the API has none
}

TEST(ProvidersTest, RepliesAreReadOrRejectedWithTheProviderNamed) {
  llvm::Expected<Reply> ok = parseReplyBody(
      Provider::OpenAI,
      R"({"model":"m","choices":[{"message":{"content":"{\"a\":1}"},
          "finish_reason":"stop"}],"usage":{"prompt_tokens":3,
          "completion_tokens":2}})");
  ASSERT_TRUE(static_cast<bool>(ok)) << llvm::toString(ok.takeError());
  EXPECT_EQ(ok->text, R"({"a":1})");
  EXPECT_FALSE(ok->json); // decoded only against a schema
  EXPECT_EQ(ok->usage.promptTokens, 3);
  llvm::Expected<Reply> noChoices =
      parseReplyBody(Provider::OpenAI, R"({"choices":[]})");
  ASSERT_FALSE(static_cast<bool>(noChoices));
  EXPECT_EQ(llvm::toString(noChoices.takeError()),
            "openai: the reply has no choices");
  llvm::Expected<Reply> refused = parseReplyBody(
      Provider::Anthropic,
      R"({"content":[{"type":"text","text":"no"}],"stop_reason":"refusal"})");
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(refused.takeError()),
            "anthropic: the model refused: no");
}

TEST(ConfigTest, RedactionHidesTheKeyEverywhere) {
  EXPECT_EQ(redact("key sk-abcdefgh and sk-abcdefgh.", "sk-abcdefgh"),
            "key [REDACTED] and [REDACTED].");
  // Too short to be a key: left alone (it would redact ordinary words).
  EXPECT_EQ(redact("a b c", "b"), "a b c");
}

} // namespace
