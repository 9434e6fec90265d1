//===- Options.cpp - The --llm-* command-line options ---------------------===//

#include "QiMeng/LLM/Options.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

using namespace mlir::qimeng::llm;

namespace {

struct LLMOptions {
  llvm::cl::OptionCategory category{"LLM options (docs/llm.md)"};
  llvm::cl::opt<std::string> provider{"llm-provider",
                                      llvm::cl::desc("openai or anthropic"),
                                      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> baseURL{
      "llm-base-url",
      llvm::cl::desc("The API's base URL (e.g. http://localhost:8000/v1)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> plannerModel{"llm-planner-model",
                                          llvm::cl::desc("The planner's model"),
                                          llvm::cl::cat(category)};
  llvm::cl::opt<std::string> coderModel{
      "llm-coder-model",
      llvm::cl::desc("The micro-coder's model (default: the planner's)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<double> timeout{
      "llm-timeout", llvm::cl::desc("Seconds per HTTP attempt (default 120)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> maxAttempts{
      "llm-max-attempts",
      llvm::cl::desc("HTTP attempts per request at most (default 4)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> cache{
      "llm-cache",
      llvm::cl::desc("Reply cache: read-write (default), read-only, offline, "
                     "refresh or off"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> cacheDir{
      "llm-cache-dir",
      llvm::cl::desc("Cache directory (default $XDG_CACHE_HOME/qimeng/llm)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> replay{
      "llm-replay",
      llvm::cl::desc("Replay the replies of a recorded session file "
                     "(offline unless --llm-cache says otherwise)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> record{
      "llm-record",
      llvm::cl::desc("Write the replies this run used to a session file"),
      llvm::cl::cat(category)};
};

llvm::ManagedStatic<LLMOptions> options;

} // namespace

void mlir::qimeng::llm::registerLLMOptions() { *options; }

llvm::cl::OptionCategory &mlir::qimeng::llm::getLLMOptionCategory() {
  return options->category;
}

ConfigFlags mlir::qimeng::llm::getLLMConfigFlags() {
  ConfigFlags flags;
  if (!options.isConstructed())
    return flags;
  flags.provider = options->provider;
  flags.baseURL = options->baseURL;
  flags.plannerModel = options->plannerModel;
  flags.coderModel = options->coderModel;
  if (options->timeout.getNumOccurrences())
    flags.totalTimeout = options->timeout;
  if (options->maxAttempts.getNumOccurrences())
    flags.maxAttempts = options->maxAttempts;
  flags.cacheMode = options->cache;
  flags.cacheDir = options->cacheDir;
  flags.replayFile = options->replay;
  flags.recordFile = options->record;
  return flags;
}
