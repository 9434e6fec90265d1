//===- Providers.cpp - The OpenAI and Anthropic API shapes ----------------===//

#include "QiMeng/LLM/Client.h"
#include "QiMeng/LLM/Schema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir::qimeng::llm;
using nlohmann::json;

nlohmann::json mlir::qimeng::llm::buildRequestBody(Provider provider,
                                                   const std::string &model,
                                                   const Request &request) {
  json body = {{"model", model}};
  if (provider == Provider::OpenAI) {
    json messages = json::array();
    for (const Message &m : request.messages)
      messages.push_back({{"role", m.role}, {"content", m.content}});
    body["messages"] = std::move(messages);
    if (request.maxTokens)
      body["max_tokens"] = *request.maxTokens;
    if (request.schema)
      body["response_format"] = {{"type", "json_schema"},
                                 {"json_schema",
                                  {{"name", request.schemaName},
                                   {"schema", *request.schema},
                                   {"strict", true}}}};
  } else {
    // Anthropic: system prompts go in a top-level field; the schema is
    // stated there (the Messages API has no response format to carry it).
    std::string system;
    json messages = json::array();
    for (const Message &m : request.messages) {
      if (m.role == "system")
        system += (system.empty() ? "" : "\n\n") + m.content;
      else
        messages.push_back({{"role", m.role}, {"content", m.content}});
    }
    if (request.schema)
      system += (system.empty() ? "" : "\n\n") +
                std::string("Reply with only one JSON value, no prose and no "
                            "code fence, that follows this JSON schema:\n") +
                request.schema->dump();
    if (!system.empty())
      body["system"] = system;
    body["messages"] = std::move(messages);
    body["max_tokens"] = request.maxTokens.value_or(4096);
  }
  if (request.temperature)
    body["temperature"] = *request.temperature;
  if (request.seed && provider == Provider::OpenAI)
    body["seed"] = *request.seed;
  return body;
}

/// A string member of `object`, or "".
static std::string stringAt(const json &object, const char *key) {
  if (!object.is_object())
    return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

static int64_t intAt(const json &object, const char *key) {
  if (!object.is_object())
    return 0;
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

llvm::Expected<Reply> mlir::qimeng::llm::parseReplyBody(Provider provider,
                                                        llvm::StringRef body) {
  llvm::StringRef name = stringifyProvider(provider);
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(name + ": " + why);
  };
  json reply = json::parse(body.begin(), body.end(), nullptr,
                           /*allow_exceptions=*/false);
  if (reply.is_discarded() || !reply.is_object())
    return fail(llvm::formatv("the reply is not JSON ({0} bytes): {1}",
                              body.size(), body.take_front(80)));
  Reply out;
  out.model = stringAt(reply, "model");
  if (provider == Provider::OpenAI) {
    auto choices = reply.find("choices");
    if (choices == reply.end() || !choices->is_array() || choices->empty())
      return fail("the reply has no choices");
    const json &choice = (*choices)[0];
    out.finishReason = stringAt(choice, "finish_reason");
    const json message = choice.is_object() && choice.contains("message")
                             ? choice["message"]
                             : json();
    if (std::string refusal = stringAt(message, "refusal"); !refusal.empty())
      return fail("the model refused: " + refusal);
    out.text = stringAt(message, "content");
    if (auto usage = reply.find("usage"); usage != reply.end()) {
      out.usage.promptTokens = intAt(*usage, "prompt_tokens");
      out.usage.completionTokens = intAt(*usage, "completion_tokens");
    }
  } else {
    auto content = reply.find("content");
    if (content != reply.end() && content->is_array())
      for (const json &block : *content)
        if (stringAt(block, "type") == "text")
          out.text += stringAt(block, "text");
    out.finishReason = stringAt(reply, "stop_reason");
    if (out.finishReason == "refusal")
      return fail("the model refused" +
                  (out.text.empty() ? std::string() : ": " + out.text));
    if (auto usage = reply.find("usage"); usage != reply.end()) {
      out.usage.promptTokens = intAt(*usage, "input_tokens");
      out.usage.completionTokens = intAt(*usage, "output_tokens");
    }
  }
  if (out.finishReason == "length" || out.finishReason == "max_tokens")
    return fail("the reply was cut off at the token limit (finish reason '" +
                out.finishReason +
                "'): raise max_tokens or shorten the prompt");
  if (llvm::StringRef(out.text).trim().empty())
    return fail("the reply has no content");
  return out;
}

char InvalidReplyError::ID = 0;

void InvalidReplyError::log(llvm::raw_ostream &os) const {
  os << where << ": ";
  if (!notJSON)
    os << "the reply does not follow the schema: ";
  llvm::interleave(problems, os, "; ");
}

std::string InvalidReplyError::feedback() const {
  std::string out = notJSON ? "Your previous reply was rejected because it "
                              "is not JSON:\n"
                            : "Your previous reply was rejected because it "
                              "does not follow the required JSON schema:\n";
  for (const std::string &problem : problems)
    out += "- " + problem + "\n";
  out += "Reply again with only the corrected JSON value.";
  return out;
}

ReplyFailure mlir::qimeng::llm::takeReplyFailure(llvm::Error error,
                                                 Request &request) {
  ReplyFailure failure;
  llvm::handleAllErrors(
      std::move(error),
      [&](const InvalidReplyError &invalid) {
        failure.message = invalid.message();
        failure.repairable = true;
        failure.problems = invalid.problems;
        request.messages.push_back({"assistant", invalid.text});
        request.messages.push_back({"user", invalid.feedback()});
      },
      [&](const llvm::ErrorInfoBase &other) {
        failure.message = other.message();
      });
  return failure;
}

/// `text` without a Markdown code fence around it.
static llvm::StringRef stripCodeFence(llvm::StringRef text) {
  llvm::StringRef trimmed = text.trim();
  if (!trimmed.starts_with("```") || !trimmed.ends_with("```") ||
      trimmed.size() < 6)
    return text;
  llvm::StringRef inner = trimmed.drop_back(3);
  // Drop the opening fence and its language tag ("```json").
  size_t newline = inner.find('\n');
  if (newline == llvm::StringRef::npos)
    return text;
  return inner.drop_front(newline + 1);
}

llvm::Error mlir::qimeng::llm::decodeJSONReply(Reply &reply, const json &schema,
                                               llvm::StringRef where) {
  llvm::StringRef text = stripCodeFence(reply.text);
  json parsed = json::parse(text.begin(), text.end(), nullptr,
                            /*allow_exceptions=*/false);
  if (parsed.is_discarded())
    return llvm::make_error<InvalidReplyError>(
        where.str(), reply.text,
        std::vector<std::string>{
            "the reply is not the JSON the schema asks for: " +
            llvm::StringRef(reply.text).trim().take_front(200).str()},
        /*notJSON=*/true);
  std::vector<std::string> problems = validateJSON(schema, parsed);
  if (!problems.empty())
    return llvm::make_error<InvalidReplyError>(where.str(), reply.text,
                                               std::move(problems));
  reply.json = std::move(parsed);
  return llvm::Error::success();
}

RetryDecision mlir::qimeng::llm::decideRetry(
    int status, llvm::StringRef body, llvm::StringRef retryAfter,
    llvm::StringRef retryAfterMs, unsigned attempt, unsigned maxAttempts,
    double baseDelay, double maxDelay, double jitter01) {
  RetryDecision decision;
  bool transient = status == 0 || status == 408 || status == 409 ||
                   status == 429 || status >= 500;
  if (status == 429 && (body.contains("insufficient_quota") ||
                        body.contains("exceeded your current quota"))) {
    decision.reason = "the quota is exhausted (not retried): check the "
                      "account's billing";
    return decision;
  }
  if (!transient) {
    decision.reason = "not a transient error (not retried)";
    return decision;
  }
  if (attempt >= maxAttempts) {
    decision.reason = llvm::formatv("gave up after {0} attempts", attempt);
    return decision;
  }
  decision.retry = true;
  double delay = baseDelay * std::pow(2.0, attempt - 1) *
                 (0.5 + 0.5 * std::clamp(jitter01, 0.0, 1.0));
  double asked = -1;
  if (!retryAfterMs.trim().empty() && !retryAfterMs.trim().getAsDouble(asked))
    asked /= 1000;
  else if (retryAfter.trim().getAsDouble(asked))
    asked = -1; // an HTTP date or garbage: use the backoff
  if (asked >= 0)
    delay = asked;
  decision.delaySeconds = std::min(delay, maxDelay);
  return decision;
}
