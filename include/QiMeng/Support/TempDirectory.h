//===- TempDirectory.h - A directory that goes away with its owner -*- C++ -*-//
//
// Where verification and plan search keep the modules, lists and reports
// they hand to qimeng-run: a fresh directory, removed with its contents
// however the owner's scope is left.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_TEMPDIRECTORY_H
#define QIMENG_SUPPORT_TEMPDIRECTORY_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>
#include <system_error>

namespace mlir::qimeng {

class TempDirectory {
public:
  TempDirectory() = default;
  TempDirectory(const TempDirectory &) = delete;
  TempDirectory &operator=(const TempDirectory &) = delete;
  ~TempDirectory() {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
  }

  /// Makes the directory (under the system's temporary directory).
  std::error_code create(const llvm::Twine &prefix) {
    return llvm::sys::fs::createUniqueDirectory(prefix, dir);
  }

  /// The path of `name` inside it.
  std::string in(const llvm::Twine &name) const {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

private:
  llvm::SmallString<128> dir;
};

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_TEMPDIRECTORY_H
