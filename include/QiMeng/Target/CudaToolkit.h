//===- CudaToolkit.h - Where the CUDA toolkit is ----------------*- C++ -*-===//
//
// The CUDA toolkit --lower-to-nvvm links libdevice from and runs ptxas of
// (for cubins). Upstream's serialization reads CUDA_ROOT, CUDA_HOME or
// CUDA_PATH and silently links nothing when none is set, so QiMeng finds one
// and names it in CUDA_HOME for this process.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TARGET_CUDATOOLKIT_H
#define QIMENG_TARGET_CUDATOOLKIT_H

#include <string>

namespace mlir::qimeng {

/// The toolkit's root: the first of CUDA_ROOT, CUDA_HOME, CUDA_PATH that is
/// set; else the toolkit of the `ptxas` on PATH, else /usr/local/cuda, if it
/// has libdevice; "" when there is none.
std::string findCudaToolkit();

/// Sets CUDA_HOME (for this process) to findCudaToolkit() when none of the
/// three variables is set and a toolkit is found.
void useFoundCudaToolkit();

/// Whether --lower-to-nvvm can make cubins: ptxas in the toolkit's bin/ or
/// on PATH.
bool hasPtxas();

} // namespace mlir::qimeng

#endif // QIMENG_TARGET_CUDATOOLKIT_H
