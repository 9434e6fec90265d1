//===- Prompts.cpp - Versioned prompt templates ---------------------------===//

#include "QiMeng/LLM/Prompts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using namespace mlir::qimeng::llm;

namespace {
struct Embedded {
  const char *name;
  const char *text;
};
// Generated from llm/prompts/*.txt by lib/LLM/CMakeLists.txt.
#include "Prompts.inc"
} // namespace

llvm::Expected<PromptTemplate>
mlir::qimeng::llm::getPromptTemplate(llvm::StringRef name) {
  std::string known;
  for (const Embedded &e : kEmbeddedPrompts) {
    if (name == e.name) {
      llvm::StringRef text(e.text);
      std::array<uint8_t, 32> digest = llvm::SHA256::hash(
          llvm::ArrayRef<uint8_t>(text.bytes_begin(), text.bytes_end()));
      return PromptTemplate{
          e.name, text,
          (name + "-" + llvm::toHex(digest, /*LowerCase=*/true).substr(0, 12))
              .str()};
    }
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  return llvm::createStringError("no prompt template '" + name +
                                 "' (known: " + known + ")");
}

llvm::Expected<std::string> mlir::qimeng::llm::renderPrompt(
    llvm::StringRef text, const std::map<std::string, std::string> &values) {
  std::string out;
  while (true) {
    size_t open = text.find("{{");
    if (open == llvm::StringRef::npos)
      break;
    size_t close = text.find("}}", open);
    if (close == llvm::StringRef::npos)
      break;
    llvm::StringRef key = text.slice(open + 2, close).trim();
    auto it = values.find(key.str());
    if (it == values.end())
      return llvm::createStringError("the prompt template uses {{" + key +
                                     "}}, which was not given");
    out += text.take_front(open).str() + it->second;
    text = text.drop_front(close + 2);
  }
  return out + text.str();
}
