//===- MgpuRuntime.h - Host calls of lowered GPU code -----------*- C++ -*-===//
//
// The host code that MLIR's GPU lowering emits calls `mgpu*` functions
// (module load, kernel launch, streams, events, device memory). Debian's LLVM
// ships no implementation, so QiMeng provides one on the CUDA driver API
// (loaded at run time, see CudaDriver.h). The host code cannot check errors:
// the first CUDA error is recorded and a caller collects it afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_RUNTIME_MGPURUNTIME_H
#define QIMENG_RUNTIME_MGPURUNTIME_H

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace mlir::qimeng::runtime {

/// One exported `mgpu*` entry point, for registering with a JIT.
struct Symbol {
  const char *name;
  void *address;
};

/// Every `mgpu*` entry point QiMeng implements, and the host code's `malloc`
/// and `free` (poisoned and tracked like device buffers, see below).
llvm::ArrayRef<Symbol> getMgpuSymbols();

/// Returns and clears the first error the `mgpu*` calls met since the last
/// call (e.g. "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (code 1)"), or
/// std::nullopt.
std::optional<std::string> takeError();

/// Frees a buffer that a compiled function returned (device memory from
/// `mgpuMemAlloc`, stream-ordered pool memory included, or host memory from
/// the host code's `malloc`): the caller of a function owns the result
/// buffers it allocates. Device memory from the pool is freed in order on
/// `stream` (null: the calling thread's launch stream, else the null
/// stream). Null is ignored.
void freeReturnedBuffer(void *ptr, void *stream = nullptr);

/// A device copy of `bytes` bytes at `src` (host or device memory), made
/// in order on `stream` by the runtime's allocator (freed like a returned
/// buffer); null with the error recorded when it fails. For a result the
/// host code returns from memory of its own (a constant global on the host).
void *copyToDevice(const void *src, size_t bytes, void *stream);

/// Who allocated a buffer a compiled function returned.
enum class BufferOwner {
  /// Not the host code (an argument's buffer, a global): not to be freed.
  None,
  /// `mgpuMemAlloc` (device, pool or managed memory), not freed yet.
  Device,
  /// The host code's `malloc`, not freed yet.
  Host,
};

/// Whether `ptr` is the start of a live buffer the host code allocated.
BufferOwner getBufferOwner(void *ptr);

/// While set to a byte (0-255), every buffer the host code allocates
/// (returned results and temporaries, on the device or by `malloc`) starts
/// with that byte everywhere, so
/// a kernel that leaves part of a result unwritten shows: what verification
/// runs ask for (0xFF: NaN in every floating-point type, -1 in every integer
/// type; 0x7F: values near the largest of each type). -1 turns it off.
void setPoisonAllocations(int byte);

/// While set (non-null) on the calling thread, every stream the host code
/// asks for on that thread is `stream`,
/// and the host code's destroy and synchronize calls leave it alone: the
/// caller orders its own work (an L2 flush, timing events) around a call of
/// a compiled function and waits for the stream itself, which is also where
/// a kernel fault shows. nullptr restores one fresh stream per request,
/// waited for by the host code.
void setLaunchStream(void *stream);

} // namespace mlir::qimeng::runtime

#endif // QIMENG_RUNTIME_MGPURUNTIME_H
