//===- WriteFile.h - Write a whole output file atomically -------*- C++ -*-===//

#ifndef QIMENG_SUPPORT_WRITEFILE_H
#define QIMENG_SUPPORT_WRITEFILE_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::qimeng {

/// Writes `text` to `path` (`-`: stdout) through a unique temporary beside
/// it, renamed into place: never a half-written file. On failure, an error
/// "cannot write <path>: <why>" on `anchor`.
inline LogicalResult writeTextFile(Operation *anchor, llvm::StringRef path,
                                   llvm::StringRef text) {
  if (llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << text;
        return llvm::Error::success();
      })) {
    anchor->emitError() << "cannot write " << path << ": "
                        << llvm::toString(std::move(error));
    return failure();
  }
  return success();
}

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_WRITEFILE_H
