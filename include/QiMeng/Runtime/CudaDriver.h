//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// QiMeng talks to the GPU through the CUDA driver API, which it loads with
// dlopen("libcuda.so.1") when first needed: every binary builds and links on
// machines with no GPU, no driver and no CUDA toolkit, and reports "no CUDA
// driver/GPU found" there. Only the few types and entry points QiMeng uses are
// declared here (no cuda.h).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_RUNTIME_CUDADRIVER_H
#define QIMENG_RUNTIME_CUDADRIVER_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir::qimeng::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUmemoryPool = struct CUmemPoolHandle_st *;

/// Where managed memory is prefetched to (CUmemLocation: a type and, for a
/// device, its ordinal).
struct CUmemLocation {
  int type;
  int id;
};
inline constexpr int kMemLocationDevice = 1;

inline constexpr CUresult kSuccess = 0;
/// CU_DEVICE_ATTRIBUTE_* values QiMeng reads.
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kAttrL2CacheSize = 38;
/// Clock rates in kHz (may be unsupported: reports leave them out).
inline constexpr int kAttrClockRate = 13;
inline constexpr int kAttrMemoryClockRate = 36;
/// CU_JIT_OPTIMIZATION_LEVEL.
inline constexpr CUjit_option kJitOptimizationLevel = 7;
/// CU_STREAM_NON_BLOCKING, CU_EVENT_DISABLE_TIMING.
inline constexpr unsigned kStreamNonBlocking = 1;
inline constexpr unsigned kEventDisableTiming = 2;
/// CU_MEM_ATTACH_GLOBAL.
inline constexpr unsigned kMemAttachGlobal = 1;
/// CU_MEMPOOL_ATTR_RELEASE_THRESHOLD (a cuuint64_t).
inline constexpr int kMemPoolReleaseThreshold = 4;
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, and the dynamic shared
/// memory a kernel gets without it.
inline constexpr int kFuncAttrMaxDynamicSharedBytes = 8;
inline constexpr int kDefaultDynamicSharedBytes = 48 * 1024;

/// A TMA descriptor (CUtensorMap): 128 opaque, 64-byte aligned bytes.
struct alignas(64) CUtensorMap {
  uint64_t opaque[16];
};

/// The failure of a machine with no usable CUDA driver or GPU: "no CUDA
/// driver/GPU found: <why>". Callers tell it from other errors with
/// `Error::isA<NoGpuError>()` (e.g. to report "could not run" rather than
/// "failed").
class NoGpuError : public llvm::ErrorInfo<NoGpuError> {
public:
  static char ID;
  explicit NoGpuError(std::string why) : why(std::move(why)) {}
  void log(llvm::raw_ostream &os) const override {
    os << "no CUDA driver/GPU found: " << why;
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string why;
};

/// The driver entry points, resolved from libcuda.so.1.
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  /// Stream-ordered allocation (CUDA 11.2+); null when the driver lacks it.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  /// Bulk migration of managed memory (CUDA 12.2+, the form CUDA 13 names
  /// cuMemPrefetchAsync); null when the driver lacks it.
  CUresult (*cuMemPrefetchAsync)(CUdeviceptr, size_t, CUmemLocation, unsigned,
                                 CUstream);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  /// Hopper's tensor maps (CUDA 12.0+); null when the driver lacks it. The
  /// enum arguments are passed as ints (their CUDA values).
  CUresult (*cuTensorMapEncodeTiled)(CUtensorMap *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int);
};

/// The loaded driver with the primary context of one device made current.
class Driver {
public:
  /// Loads libcuda.so.1 (or the library named by $QIMENG_LIBCUDA), resolves
  /// the entry points, initializes the driver and retains device `ordinal`'s
  /// primary context. Later calls return the same driver (the first call's
  /// ordinal wins). Fails with "no CUDA driver/GPU found: <why>".
  static llvm::Expected<Driver &> get(int ordinal = 0);

  const DriverApi &api() const { return fns; }
  CUdevice device() const { return dev; }
  CUcontext context() const { return ctx; }
  /// Makes the primary context current on the calling thread.
  llvm::Error makeCurrent() const;

  /// "NAME (code N)" for a result code.
  std::string describe(CUresult result) const;
  /// An error "`what` failed: NAME" unless `result` is success.
  llvm::Error check(CUresult result, llvm::StringRef what) const;

private:
  Driver() = default;
  DriverApi fns{};
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
};

/// What the device is, for reports.
struct DeviceInfo {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  int64_t l2Bytes = 0;
  int driverVersion = 0;
  /// SM and memory clocks in kHz; 0 where the driver does not say.
  int clockKHz = 0, memoryClockKHz = 0;
};
llvm::Expected<DeviceInfo> getDeviceInfo(const Driver &driver);

} // namespace mlir::qimeng::cuda

#endif // QIMENG_RUNTIME_CUDADRIVER_H
