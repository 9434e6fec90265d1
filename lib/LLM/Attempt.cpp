//===- Attempt.cpp - One round of a conversation, as reports record it ----===//

#include "QiMeng/LLM/Attempt.h"

#include "llvm/ADT/Twine.h"

using namespace mlir::qimeng::llm;

Attempt::Attempt(unsigned round)
    : start(std::chrono::steady_clock::now()), entry{{"round", round}} {}

void Attempt::finish(nlohmann::json &attempts, llvm::StringRef outcome,
                     llvm::StringRef detail, const char *detailKey) {
  entry["outcome"] = outcome.str();
  if (!detail.empty())
    entry[detailKey] = detail.str();
  entry["seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  attempts.push_back(entry);
}

std::string mlir::qimeng::llm::repairMessage(llvm::StringRef what,
                                             llvm::StringRef why,
                                             llvm::StringRef field) {
  return ("Your " + llvm::Twine(what) + " was rejected: " + why +
          "\nReply again with the complete, corrected " + what + " as {\"" +
          field + "\": \"...\"}.")
      .str();
}
