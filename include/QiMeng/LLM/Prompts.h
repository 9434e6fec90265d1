//===- Prompts.h - Versioned prompt templates -------------------*- C++ -*-===//
//
// The prompts QiMeng sends live as template files under llm/prompts/
// (<name>.v<N>.txt) and are compiled into the binary. A template's version
// (its file name and a hash of its text) is part of every request's cache
// key, so editing a prompt never replays a reply to the old one.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_PROMPTS_H
#define QIMENG_LLM_PROMPTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace mlir::qimeng::llm {

struct PromptTemplate {
  /// "plan.v1", "microcode.v1".
  llvm::StringRef name;
  llvm::StringRef text;
  /// name + "-" + the first 12 hex digits of the text's sha256.
  std::string version;
};

/// The template named `name` (without ".txt"); an error lists the known
/// ones.
llvm::Expected<PromptTemplate> getPromptTemplate(llvm::StringRef name);

/// `text` with every {{key}} replaced by its value; a key the template uses
/// but `values` lacks is an error.
llvm::Expected<std::string>
renderPrompt(llvm::StringRef text,
             const std::map<std::string, std::string> &values);

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_PROMPTS_H
