//===- CudaToolkit.cpp - Where the CUDA toolkit is ------------------------===//

#include "QiMeng/Target/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir::qimeng;

/// The first of the toolkit variables that is set, or null.
static const char *getToolkitVariable() {
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(var); value && *value)
      return value;
  return nullptr;
}

std::string mlir::qimeng::findCudaToolkit() {
  if (const char *root = getToolkitVariable())
    return root;
  llvm::SmallVector<std::string> candidates;
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    candidates.push_back(std::string(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))));
  candidates.push_back("/usr/local/cuda");
  for (const std::string &root : candidates) {
    llvm::SmallString<128> libdevice(root);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return root;
  }
  return "";
}

void mlir::qimeng::useFoundCudaToolkit() {
  if (getToolkitVariable())
    return;
  std::string root = findCudaToolkit();
  if (!root.empty())
    ::setenv("CUDA_HOME", root.c_str(), /*overwrite=*/0);
}

bool mlir::qimeng::hasPtxas() {
  std::string root = findCudaToolkit();
  if (!root.empty()) {
    llvm::SmallString<128> ptxas(root);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(ptxas))
      return true;
  }
  return static_cast<bool>(llvm::sys::findProgramByName("ptxas"));
}
