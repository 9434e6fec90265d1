//===- FuzzSupport.h - What QiMeng's fuzz targets share ---------*- C++ -*-===//
//
// The fuzz targets (fuzz/*.cpp, docs/fuzzing.md) feed arbitrary bytes to
// QiMeng's input paths. They share the input size cap, the environment they
// run in (never an LLM endpoint) and a scratch directory for the paths that
// read files.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_FUZZ_FUZZSUPPORT_H
#define QIMENG_FUZZ_FUZZSUPPORT_H

#include "QiMeng/InitAll.h"
#include "QiMeng/Planner/CompileSession.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

extern char **environ;

namespace mlir::qimeng::fuzz {

/// Inputs larger than this are skipped: every path QiMeng reads is far
/// smaller in practice, and large inputs only slow the search down.
inline constexpr size_t kMaxInputBytes = 64 * 1024;

/// Reports a broken invariant of the code under test (a success that does
/// not hold up, a result that does not read back) and aborts, so the
/// fuzzer records the input like any crash.
[[noreturn]] inline void reportBug(const llvm::Twine &what) {
  llvm::errs() << "qimeng-fuzz: invariant broken: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

/// `data` as text.
inline llvm::StringRef asText(const uint8_t *data, size_t size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

/// `data` as a string: for MLIR's parser, whose lexer needs a '\0' after
/// the text, as every caller in QiMeng gives it (a file's MemoryBuffer, a
/// std::string); the fuzzer's buffer ends without one.
inline std::string asString(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

/// Unsets every variable that could point QiMeng at an LLM endpoint (or
/// a replay file, a model, a key), so no input ever leads to a request.
inline void clearLLMEnvironment() {
  std::vector<std::string> names;
  for (char **entry = environ; entry && *entry; ++entry) {
    llvm::StringRef name = llvm::StringRef(*entry).split('=').first;
    if (name.starts_with("QIMENG_LLM_") || name.starts_with("OPENAI_") ||
        name.starts_with("ANTHROPIC_") || name == "QIMENG_PLANNER_MODEL" ||
        name == "QIMENG_CODER_MODEL")
      names.push_back(name.str());
  }
  for (const std::string &name : names)
    ::unsetenv(name.c_str());
}

/// What every harness that compiles needs first: no LLM and no tuning
/// database whatever the environment holds, and the passes registered.
inline void setUpCompiler() {
  clearLLMEnvironment();
  CompileSession::disableLLM();
  registerAllPasses();
}

/// A directory of this process's own for the files a target writes its
/// input to, removed at exit: in memory (/dev/shm) where there is one, as
/// a disk would make the file targets many times slower.
inline const std::string &getScratchDirectory() {
  static const std::string dir = [] {
    llvm::SmallString<128> base;
    if (llvm::sys::fs::is_directory("/dev/shm") &&
        !llvm::sys::fs::access("/dev/shm", llvm::sys::fs::AccessMode::Write))
      base = "/dev/shm";
    else
      llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, base);
    std::string pattern = (base + "/qimeng-fuzz-XXXXXX").str();
    if (!::mkdtemp(pattern.data()))
      llvm::report_fatal_error(llvm::Twine("cannot create a directory in ") +
                               base + ": " + std::strerror(errno));
    std::string made = pattern;
    static std::string removed;
    removed = made;
    std::atexit([] { llvm::sys::fs::remove_directories(removed); });
    return made;
  }();
  return dir;
}

/// The path of `name` in the scratch directory.
inline std::string getScratchPath(llvm::StringRef name) {
  llvm::SmallString<128> path(getScratchDirectory());
  llvm::sys::path::append(path, name);
  return std::string(path);
}

/// Writes `contents` to `path`; a failure is the harness's, not the input's.
inline void writeScratchFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    llvm::report_fatal_error(llvm::Twine("cannot write ") + path + ": " +
                             ec.message());
  os << contents;
}

/// Every dialect, extension and interface qimeng-opt registers, made once.
inline const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry registry = [] {
    mlir::DialectRegistry made;
    mlir::qimeng::registerAllDialects(made);
    return made;
  }();
  return registry;
}

} // namespace mlir::qimeng::fuzz

#endif // QIMENG_FUZZ_FUZZSUPPORT_H
