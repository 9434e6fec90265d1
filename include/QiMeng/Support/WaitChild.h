//===- WaitChild.h - Wait for a child process with a time limit -*- C++ -*-===//
//
// Polls one child (waitpid with WNOHANG) until it ends or its time is up,
// then kills it. Several threads may each wait for their own child this way
// at once, which a wait through the process's one alarm would not allow.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_WAITCHILD_H
#define QIMENG_SUPPORT_WAITCHILD_H

#include <chrono>
#include <csignal>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>

namespace mlir::qimeng {

enum class ChildEnd {
  /// It ended by itself: `status` is its wait status.
  Ended,
  /// It ran past the time limit and was killed.
  TimedOut,
  /// waitpid failed (errno says why).
  Lost
};

inline ChildEnd waitForChild(pid_t child, unsigned seconds, int &status) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      return ChildEnd::Ended;
    if (done < 0)
      return ChildEnd::Lost;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return ChildEnd::TimedOut;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_WAITCHILD_H
