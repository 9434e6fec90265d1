//===- RunProcess.cpp - Run a tool under a time limit ---------------------===//

#include "QiMeng/Support/RunProcess.h"

#include "QiMeng/Support/WaitChild.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

extern char **environ;

using llvm::SmallVector;

namespace {

/// The CUDA_VISIBLE_DEVICES entry of the GPU this process numbers `ordinal`:
/// the ordinal-th entry of its own CUDA_VISIBLE_DEVICES when set (ordinals
/// count the visible GPUs only), else the ordinal itself.
std::string getVisibleDevice(int ordinal) {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible)
    return std::to_string(ordinal);
  SmallVector<llvm::StringRef> entries;
  llvm::StringRef(visible).split(entries, ',');
  if (ordinal >= 0 && size_t(ordinal) < entries.size())
    return entries[ordinal].trim().str();
  return std::to_string(ordinal);
}

} // namespace

int mlir::qimeng::runProcess(const std::string &program,
                             llvm::ArrayRef<std::string> args,
                             llvm::StringRef logPath, std::optional<int> device,
                             unsigned seconds, std::string *execError) {
  // Waits by polling its own child: a wait with a time limit through
  // llvm::sys::Wait would share the process's one alarm among threads.
  SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), logPath,
                                                logPath};
  std::optional<SmallVector<llvm::StringRef>> environment;
  std::vector<std::string> variables;
  if (device) {
    for (char **var = environ; *var; ++var)
      if (!llvm::StringRef(*var).starts_with("CUDA_VISIBLE_DEVICES="))
        variables.push_back(*var);
    variables.push_back("CUDA_VISIBLE_DEVICES=" + getVisibleDevice(*device));
    environment.emplace(variables.begin(), variables.end());
  }
  bool failed = false;
  llvm::sys::ProcessInfo child = llvm::sys::ExecuteNoWait(
      program, argRefs,
      environment ? std::optional<llvm::ArrayRef<llvm::StringRef>>(*environment)
                  : std::nullopt,
      redirects, 0, execError, &failed);
  if (failed || child.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return kProcessNotStarted;
  int status = 0;
  switch (waitForChild(child.Pid, seconds, status)) {
  case ChildEnd::Ended:
    return WIFEXITED(status) ? WEXITSTATUS(status) : kProcessKilled;
  case ChildEnd::TimedOut:
    return kProcessKilled;
  case ChildEnd::Lost:
    if (execError)
      *execError = "lost the child process";
    return kProcessNotStarted;
  }
  return kProcessNotStarted;
}
