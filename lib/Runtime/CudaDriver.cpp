//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "QiMeng/Runtime/CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace mlir::qimeng::cuda;

namespace {

/// Resolves `name` into `slot`; records the first missing symbol.
template <typename Fn>
void resolve(void *library, const char *name, Fn &slot, std::string &missing) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (!slot && missing.empty())
    missing = name;
}

} // namespace

char NoGpuError::ID;

llvm::Expected<Driver &> Driver::get(int ordinal) {
  static Driver driver;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [&] {
    const char *path = std::getenv("QIMENG_LIBCUDA");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *why = dlerror();
      failure = llvm::formatv("cannot load {0} ({1})", path,
                              why ? why : "unknown reason");
      return;
    }
    DriverApi &f = driver.fns;
    std::string missing;
    resolve(library, "cuInit", f.cuInit, missing);
    resolve(library, "cuDriverGetVersion", f.cuDriverGetVersion, missing);
    resolve(library, "cuDeviceGetCount", f.cuDeviceGetCount, missing);
    resolve(library, "cuDeviceGet", f.cuDeviceGet, missing);
    resolve(library, "cuDeviceGetName", f.cuDeviceGetName, missing);
    resolve(library, "cuDeviceGetAttribute", f.cuDeviceGetAttribute, missing);
    resolve(library, "cuDevicePrimaryCtxRetain", f.cuDevicePrimaryCtxRetain,
            missing);
    resolve(library, "cuCtxSetCurrent", f.cuCtxSetCurrent, missing);
    resolve(library, "cuCtxSynchronize", f.cuCtxSynchronize, missing);
    resolve(library, "cuModuleLoadData", f.cuModuleLoadData, missing);
    resolve(library, "cuModuleLoadDataEx", f.cuModuleLoadDataEx, missing);
    resolve(library, "cuModuleUnload", f.cuModuleUnload, missing);
    resolve(library, "cuModuleGetFunction", f.cuModuleGetFunction, missing);
    resolve(library, "cuLaunchKernel", f.cuLaunchKernel, missing);
    resolve(library, "cuStreamCreate", f.cuStreamCreate, missing);
    resolve(library, "cuStreamDestroy_v2", f.cuStreamDestroy, missing);
    resolve(library, "cuStreamSynchronize", f.cuStreamSynchronize, missing);
    resolve(library, "cuStreamWaitEvent", f.cuStreamWaitEvent, missing);
    resolve(library, "cuEventCreate", f.cuEventCreate, missing);
    resolve(library, "cuEventDestroy_v2", f.cuEventDestroy, missing);
    resolve(library, "cuEventSynchronize", f.cuEventSynchronize, missing);
    resolve(library, "cuEventRecord", f.cuEventRecord, missing);
    // CUDA 12.8 added a _v2 (the one CUDA 13's header names); older
    // drivers have only the first.
    f.cuEventElapsedTime = reinterpret_cast<decltype(f.cuEventElapsedTime)>(
        dlsym(library, "cuEventElapsedTime_v2"));
    if (!f.cuEventElapsedTime)
      resolve(library, "cuEventElapsedTime", f.cuEventElapsedTime, missing);
    resolve(library, "cuMemAlloc_v2", f.cuMemAlloc, missing);
    resolve(library, "cuMemAllocManaged", f.cuMemAllocManaged, missing);
    resolve(library, "cuMemFree_v2", f.cuMemFree, missing);
    // Optional: the runtime falls back to cuMemAlloc without them.
    auto optional = [&](const char *name, auto &fn) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(library, name));
    };
    optional("cuMemAllocAsync", f.cuMemAllocAsync);
    optional("cuMemFreeAsync", f.cuMemFreeAsync);
    optional("cuDeviceGetDefaultMemPool", f.cuDeviceGetDefaultMemPool);
    optional("cuMemPoolSetAttribute", f.cuMemPoolSetAttribute);
    // Optional: without it, managed memory migrates page by page on faults.
    optional("cuMemPrefetchAsync_v2", f.cuMemPrefetchAsync);
    resolve(library, "cuMemcpyAsync", f.cuMemcpyAsync, missing);
    resolve(library, "cuMemsetD8Async", f.cuMemsetD8Async, missing);
    resolve(library, "cuMemsetD16Async", f.cuMemsetD16Async, missing);
    resolve(library, "cuMemsetD32Async", f.cuMemsetD32Async, missing);
    resolve(library, "cuGetErrorName", f.cuGetErrorName, missing);
    resolve(library, "cuFuncSetAttribute", f.cuFuncSetAttribute, missing);
    // Optional: only kernels that read through TMA need it.
    optional("cuTensorMapEncodeTiled", f.cuTensorMapEncodeTiled);
    if (!missing.empty()) {
      failure = llvm::formatv("{0} has no symbol {1}", path, missing);
      return;
    }
    int count = 0;
    if (CUresult r = f.cuInit(0); r != kSuccess) {
      failure = "cuInit failed: " + driver.describe(r);
      return;
    }
    if (CUresult r = f.cuDeviceGetCount(&count); r != kSuccess || count == 0) {
      failure = "the driver reports no device";
      return;
    }
    if (ordinal < 0 || ordinal >= count) {
      failure =
          llvm::formatv("device {0} requested, {1} present", ordinal, count);
      return;
    }
    if (CUresult r = f.cuDeviceGet(&driver.dev, ordinal); r != kSuccess) {
      failure = "cuDeviceGet failed: " + driver.describe(r);
      return;
    }
    if (CUresult r = f.cuDevicePrimaryCtxRetain(&driver.ctx, driver.dev);
        r != kSuccess) {
      failure = "cuDevicePrimaryCtxRetain failed: " + driver.describe(r);
      return;
    }
  });
  if (!failure.empty())
    return llvm::make_error<NoGpuError>(failure);
  if (llvm::Error err = driver.makeCurrent())
    return std::move(err);
  return driver;
}

llvm::Error Driver::makeCurrent() const {
  return check(fns.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

std::string Driver::describe(CUresult result) const {
  const char *name = nullptr;
  if (!fns.cuGetErrorName || fns.cuGetErrorName(result, &name) != kSuccess ||
      !name)
    name = "CUDA_ERROR_UNKNOWN";
  return llvm::formatv("{0} (code {1})", name, result);
}

llvm::Error Driver::check(CUresult result, llvm::StringRef what) const {
  if (result == kSuccess)
    return llvm::Error::success();
  return llvm::createStringError(what + " failed: " + describe(result));
}

llvm::Expected<DeviceInfo>
mlir::qimeng::cuda::getDeviceInfo(const Driver &driver) {
  const DriverApi &f = driver.api();
  DeviceInfo info;
  char name[256] = {};
  if (llvm::Error err = driver.check(
          f.cuDeviceGetName(name, sizeof(name) - 1, driver.device()),
          "cuDeviceGetName"))
    return std::move(err);
  info.name = name;
  int l2 = 0;
  for (auto [attr, slot] :
       {std::pair<int, int *>{kAttrComputeCapabilityMajor, &info.computeMajor},
        {kAttrComputeCapabilityMinor, &info.computeMinor},
        {kAttrMultiprocessorCount, &info.multiprocessors},
        {kAttrL2CacheSize, &l2}})
    if (llvm::Error err =
            driver.check(f.cuDeviceGetAttribute(slot, attr, driver.device()),
                         "cuDeviceGetAttribute"))
      return std::move(err);
  info.l2Bytes = l2;
  // Deprecated attributes: a driver may refuse them, which is no error.
  if (f.cuDeviceGetAttribute(&info.clockKHz, kAttrClockRate, driver.device()) !=
      kSuccess)
    info.clockKHz = 0;
  if (f.cuDeviceGetAttribute(&info.memoryClockKHz, kAttrMemoryClockRate,
                             driver.device()) != kSuccess)
    info.memoryClockKHz = 0;
  if (llvm::Error err = driver.check(f.cuDriverGetVersion(&info.driverVersion),
                                     "cuDriverGetVersion"))
    return std::move(err);
  return info;
}
