//===- Options.h - The --llm-* command-line options -------------*- C++ -*-===//
//
// One set of flags for every tool that talks to an LLM (qimeng-llm,
// qimeng-opt), so they are spelled and documented once.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LLM_OPTIONS_H
#define QIMENG_LLM_OPTIONS_H

#include "QiMeng/LLM/Config.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::qimeng::llm {

/// Registers --llm-provider, --llm-base-url, --llm-planner-model,
/// --llm-coder-model, --llm-timeout, --llm-max-attempts, --llm-cache,
/// --llm-cache-dir, --llm-replay and --llm-record. Call before parsing the
/// command line.
void registerLLMOptions();

/// The category the options above are in (for a tool's --help).
llvm::cl::OptionCategory &getLLMOptionCategory();

/// The options as given (unset ones empty).
ConfigFlags getLLMConfigFlags();

} // namespace mlir::qimeng::llm

#endif // QIMENG_LLM_OPTIONS_H
