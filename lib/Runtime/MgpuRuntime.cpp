//===- MgpuRuntime.cpp - Host calls of lowered GPU code -------------------===//
//
// Signatures follow what MLIR 22's GPU-to-LLVM lowering and the gpu.binary
// translation declare (read off the LLVM IR they produce), e.g.
//   declare ptr @mgpuModuleLoadJIT(ptr, i32)
//   declare ptr @mgpuMemAlloc(i64, ptr, i8)
//   declare void @mgpuLaunchKernel(ptr, i64 x6, i32, ptr, ptr, ptr, i64)
//   declare ptr @mgpuTensorMapEncodeTiledMemref(i64, ptr, i64 x5, ptr)
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Runtime/MgpuRuntime.h"
#include "QiMeng/Runtime/CudaDriver.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_set>

using namespace mlir::qimeng;
using namespace mlir::qimeng::cuda;

namespace {

std::mutex errorMutex;
std::optional<std::string> firstError;
/// Per thread: a caller (the verifier's timing, a PyTorch call) sets it
/// around the calls it makes on its own thread.
thread_local void *launchStream = nullptr;
std::atomic<int> poisonAllocations{-1};

void record(std::string message) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (!firstError)
    firstError = std::move(message);
}

/// Whether an error was recorded and not yet taken: the call's later
/// launches are skipped (their inputs, e.g. a tensor map, may be missing).
bool hasError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  return firstError.has_value();
}

/// The driver with its context current, or null (the error recorded).
const Driver *driver() {
  llvm::Expected<Driver &> d = Driver::get();
  if (!d) {
    record(llvm::toString(d.takeError()));
    return nullptr;
  }
  return &*d;
}

/// Records a failed call; returns whether it succeeded.
bool ok(const Driver &d, CUresult result, const char *what) {
  if (result == kSuccess)
    return true;
  record(std::string(what) + " failed: " + d.describe(result));
  return false;
}

/// The stream a call on `stream` goes to: the caller's stream when one is
/// set and the host code names none.
void *streamOf(void *stream) { return stream ? stream : launchStream; }

/// Device allocations from the device's default memory pool, which keeps
/// freed memory for reuse (a kernel's temporaries cost no cuMemAlloc per
/// call), and the others (cuMemAlloc, managed memory): a caller asks which
/// buffers a call returned are the host code's to free.
std::mutex pooledMutex;
std::unordered_set<CUdeviceptr> pooled, unpooled;

CUmemoryPool getDevicePool(const Driver &d) {
  static CUmemoryPool pool = [&]() -> CUmemoryPool {
    const DriverApi &api = d.api();
    if (!api.cuMemAllocAsync || !api.cuMemFreeAsync ||
        !api.cuDeviceGetDefaultMemPool || !api.cuMemPoolSetAttribute)
      return nullptr;
    CUmemoryPool found = nullptr;
    if (api.cuDeviceGetDefaultMemPool(&found, d.device()) != kSuccess)
      return nullptr;
    // Keep freed memory in the pool instead of returning it at each
    // synchronization.
    uint64_t keepAll = UINT64_MAX;
    if (api.cuMemPoolSetAttribute(found, kMemPoolReleaseThreshold, &keepAll) !=
        kSuccess)
      return nullptr;
    return found;
  }();
  return pool;
}

/// The buffers the host code took from its `malloc` and has not freed: a
/// returned result may be one (a copy the host code made), which the caller
/// then frees with `free`, not the driver.
std::mutex hostMutex;
std::unordered_set<void *> hostAllocations;

/// Forgets `ptr` if the host code allocated it; returns whether it did.
bool forgetHostAllocation(void *ptr) {
  std::lock_guard<std::mutex> lock(hostMutex);
  return hostAllocations.erase(ptr) != 0;
}

/// Lets `function` take `bytes` of dynamic shared memory (above 48 KB a
/// kernel must ask for it), once per function and size.
bool allowDynamicShared(const Driver &d, CUfunction function, int32_t bytes) {
  static std::mutex mutex;
  static std::map<CUfunction, int32_t> allowed;
  std::lock_guard<std::mutex> lock(mutex);
  int32_t &current = allowed[function];
  if (current >= bytes)
    return true;
  if (!ok(d,
          d.api().cuFuncSetAttribute(function, kFuncAttrMaxDynamicSharedBytes,
                                     bytes),
          "cuFuncSetAttribute (dynamic shared memory above 48 KB)"))
    return false;
  current = bytes;
  return true;
}

/// Tensor maps in device memory, by their bytes: the host code encodes one
/// per call, and a call repeated on the same buffers finds its maps here
/// instead of copying them again. Freed (after the device is idle) when
/// there are too many.
constexpr size_t kMaxCachedTensorMaps = 1024;
std::mutex tensorMapMutex;
std::map<std::array<uint64_t, 16>, CUdeviceptr> tensorMaps;

/// Device memory holding `map`, or 0 (the error recorded).
CUdeviceptr getDeviceTensorMap(const Driver &d, const CUtensorMap &map) {
  std::array<uint64_t, 16> key;
  std::memcpy(key.data(), map.opaque, sizeof(map.opaque));
  std::lock_guard<std::mutex> lock(tensorMapMutex);
  if (auto it = tensorMaps.find(key); it != tensorMaps.end())
    return it->second;
  const DriverApi &api = d.api();
  if (tensorMaps.size() >= kMaxCachedTensorMaps) {
    if (!ok(d, api.cuCtxSynchronize(), "cuCtxSynchronize (a kernel failed)"))
      return 0;
    for (auto &entry : tensorMaps)
      (void)api.cuMemFree(entry.second);
    tensorMaps.clear();
  }
  CUdeviceptr device = 0;
  if (!ok(d, api.cuMemAlloc(&device, sizeof(CUtensorMap)), "cuMemAlloc"))
    return 0;
  // From pageable host memory: the copy is done when the call returns.
  if (!ok(d,
          api.cuMemcpyAsync(device, reinterpret_cast<CUdeviceptr>(&map),
                            sizeof(CUtensorMap), nullptr),
          "cuMemcpyAsync (tensor map)") ||
      !ok(d, api.cuStreamSynchronize(nullptr), "cuStreamSynchronize")) {
    (void)api.cuMemFree(device);
    return 0;
  }
  tensorMaps[key] = device;
  return device;
}

/// A ranked memref descriptor as the host code lays it out, in 64-bit
/// fields: base and aligned pointers, offset, `rank` sizes, `rank` strides.
struct RankedDescriptor {
  explicit RankedDescriptor(void *raw) : fields(static_cast<int64_t *>(raw)) {}
  char *aligned() const { return reinterpret_cast<char *>(fields[1]); }
  int64_t offset() const { return fields[2]; }
  const int64_t *sizes() const { return fields + 3; }
  const int64_t *strides(int64_t rank) const { return fields + 3 + rank; }
  int64_t *fields;
};

/// Bytes per element of each CUtensorMapDataType (UINT8 ... TFLOAT32_FTZ).
constexpr int64_t kTensorMapElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                              4, 8, 2, 4, 4, 4};

} // namespace


extern "C" void mgpuMemFree(void *ptr, void *stream);
extern "C" void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared);
extern "C" void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);

extern "C" {

/// The host code's `malloc`: poisoned like device buffers while poisoning is
/// on, and remembered.
static void *qimengHostMalloc(size_t bytes) {
  void *ptr = std::malloc(bytes);
  if (!ptr)
    return nullptr;
  if (int byte = poisonAllocations; byte >= 0)
    std::memset(ptr, byte, bytes);
  std::lock_guard<std::mutex> lock(hostMutex);
  hostAllocations.insert(ptr);
  return ptr;
}

/// The host code's `free`.
static void qimengHostFree(void *ptr) {
  if (!ptr)
    return;
  forgetHostAllocation(ptr);
  std::free(ptr);
}

} // extern "C"

std::optional<std::string> mlir::qimeng::runtime::takeError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  std::optional<std::string> error = std::move(firstError);
  firstError.reset();
  return error;
}

void mlir::qimeng::runtime::freeReturnedBuffer(void *ptr, void *stream) {
  if (!ptr)
    return;
  if (forgetHostAllocation(ptr)) {
    std::free(ptr);
    return;
  }
  // On the given stream, or the caller's when one is set (timing), else the
  // null stream.
  mgpuMemFree(ptr, stream);
}

runtime::BufferOwner mlir::qimeng::runtime::getBufferOwner(void *ptr) {
  {
    std::lock_guard<std::mutex> lock(hostMutex);
    if (hostAllocations.count(ptr))
      return BufferOwner::Host;
  }
  auto device = reinterpret_cast<CUdeviceptr>(ptr);
  std::lock_guard<std::mutex> lock(pooledMutex);
  if (pooled.count(device) || unpooled.count(device))
    return BufferOwner::Device;
  return BufferOwner::None;
}

void *mlir::qimeng::runtime::copyToDevice(const void *src, size_t bytes,
                                          void *stream) {
  void *copy = mgpuMemAlloc(bytes, stream, /*isHostShared=*/false);
  if (copy)
    mgpuMemcpy(copy, const_cast<void *>(src), bytes, stream);
  return copy;
}

void mlir::qimeng::runtime::setPoisonAllocations(int byte) {
  poisonAllocations = byte >= 0 && byte <= 255 ? byte : -1;
}

void mlir::qimeng::runtime::setLaunchStream(void *stream) {
  launchStream = stream;
}

extern "C" {

void *mgpuModuleLoad(void *data, int64_t /*size*/) {
  const Driver *d = driver();
  CUmodule module = nullptr;
  if (d)
    ok(*d, d->api().cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

void *mgpuModuleLoadJIT(void *ptx, int32_t optLevel) {
  const Driver *d = driver();
  CUmodule module = nullptr;
  if (!d)
    return nullptr;
  CUjit_option options[] = {kJitOptimizationLevel};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  ok(*d, d->api().cuModuleLoadDataEx(&module, ptx, 1, options, values),
     "cuModuleLoadDataEx (PTX JIT)");
  return module;
}

void mgpuModuleUnload(void *module) {
  if (const Driver *d = driver(); d && module)
    ok(*d, d->api().cuModuleUnload(static_cast<CUmodule>(module)),
       "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  const Driver *d = driver();
  CUfunction function = nullptr;
  if (d && module)
    ok(*d,
       d->api().cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                    name),
       "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, int64_t /*paramCount*/) {
  // A grid of no blocks (a dynamic size of 0 at run time) has nothing to
  // compute; CUDA would refuse it.
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0)
    return;
  const Driver *d = driver();
  if (!d || !function || hasError())
    return;
  if (smem > kDefaultDynamicSharedBytes &&
      !allowDynamicShared(*d, static_cast<CUfunction>(function), smem))
    return;
  ok(*d,
     d->api().cuLaunchKernel(static_cast<CUfunction>(function), gridX, gridY,
                             gridZ, blockX, blockY, blockZ, smem,
                             static_cast<CUstream>(stream), params, extra),
     "cuLaunchKernel");
}

void *mgpuStreamCreate() {
  if (void *fixed = launchStream)
    return fixed;
  const Driver *d = driver();
  CUstream stream = nullptr;
  if (d)
    ok(*d, d->api().cuStreamCreate(&stream, kStreamNonBlocking),
       "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  if (stream == launchStream)
    return;
  if (const Driver *d = driver(); d && stream)
    ok(*d, d->api().cuStreamDestroy(static_cast<CUstream>(stream)),
       "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  // The caller's stream: the caller waits for it (and sees kernel faults
  // there).
  if (stream && stream == launchStream)
    return;
  if (const Driver *d = driver())
    ok(*d, d->api().cuStreamSynchronize(static_cast<CUstream>(stream)),
       "cuStreamSynchronize (a kernel failed)");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (const Driver *d = driver())
    ok(*d,
       d->api().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                  static_cast<CUevent>(event), 0),
       "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  const Driver *d = driver();
  CUevent event = nullptr;
  if (d)
    ok(*d, d->api().cuEventCreate(&event, kEventDisableTiming),
       "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  if (const Driver *d = driver(); d && event)
    ok(*d, d->api().cuEventDestroy(static_cast<CUevent>(event)),
       "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  if (const Driver *d = driver())
    ok(*d, d->api().cuEventSynchronize(static_cast<CUevent>(event)),
       "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  if (const Driver *d = driver())
    ok(*d,
       d->api().cuEventRecord(static_cast<CUevent>(event),
                              static_cast<CUstream>(stream)),
       "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared) {
  const Driver *d = driver();
  CUdeviceptr ptr = 0;
  if (!d || bytes == 0)
    return nullptr;
  const DriverApi &api = d->api();
  auto on = static_cast<CUstream>(streamOf(stream));
  // Poison ordered before the kernels that use the buffer:
  // on its stream, or waited for (managed memory, allocated synchronously).
  auto poison = [&](bool wait) {
    int byte = poisonAllocations;
    if (byte < 0 || !ptr)
      return;
    CUstream target = wait ? nullptr : on;
    if (ok(*d,
           api.cuMemsetD8Async(ptr, static_cast<unsigned char>(byte), bytes,
                               target),
           "cuMemsetD8Async (poison)") &&
        wait)
      ok(*d, api.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  };
  auto remember = [&] {
    std::lock_guard<std::mutex> lock(pooledMutex);
    unpooled.insert(ptr);
  };
  if (isHostShared) {
    if (ok(*d, api.cuMemAllocManaged(&ptr, bytes, kMemAttachGlobal),
           "cuMemAllocManaged"))
      remember();
    poison(/*wait=*/true);
    return reinterpret_cast<void *>(ptr);
  }
  if (getDevicePool(*d)) {
    if (ok(*d, api.cuMemAllocAsync(&ptr, bytes, on), "cuMemAllocAsync")) {
      std::lock_guard<std::mutex> lock(pooledMutex);
      pooled.insert(ptr);
    }
    poison(/*wait=*/false);
    return reinterpret_cast<void *>(ptr);
  }
  if (ok(*d, api.cuMemAlloc(&ptr, bytes), "cuMemAlloc"))
    remember();
  poison(/*wait=*/true);
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void *stream) {
  const Driver *d = driver();
  if (!d || !ptr)
    return;
  auto device = reinterpret_cast<CUdeviceptr>(ptr);
  bool fromPool = false;
  {
    std::lock_guard<std::mutex> lock(pooledMutex);
    fromPool = pooled.erase(device) > 0;
    if (!fromPool)
      unpooled.erase(device);
  }
  if (fromPool)
    ok(*d,
       d->api().cuMemFreeAsync(device, static_cast<CUstream>(streamOf(stream))),
       "cuMemFreeAsync");
  else
    ok(*d, d->api().cuMemFree(device), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (const Driver *d = driver())
    ok(*d,
       d->api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                              reinterpret_cast<CUdeviceptr>(src), bytes,
                              static_cast<CUstream>(stream)),
       "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  if (const Driver *d = driver())
    ok(*d,
       d->api().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                 count, static_cast<CUstream>(stream)),
       "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (const Driver *d = driver())
    ok(*d,
       d->api().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                 count, static_cast<CUstream>(stream)),
       "cuMemsetD16Async");
}

/// What `nvgpu.tma.create.descriptor` lowers to: encodes a tiled tensor map
/// of the memref `descriptor` (rank `rank`; `box` outermost first, as the op
/// takes it) and returns a pointer to it in device memory, which the kernel
/// takes as an argument. Sizes, strides and the offset are the memref's;
/// TMA needs a 16-byte aligned start and row strides that are multiples of
/// 16 bytes, which is checked here with a clear error.
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *box) {
  const Driver *d = driver();
  if (!d || hasError())
    return nullptr;
  if (!d->api().cuTensorMapEncodeTiled) {
    record("the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later "
           "is needed for TMA)");
    return nullptr;
  }
  if (rank < 1 || rank > 5 || dataType < 0 ||
      dataType >= int64_t(std::size(kTensorMapElementBytes))) {
    record("mgpuTensorMapEncodeTiledMemref: unsupported rank or data type");
    return nullptr;
  }
  RankedDescriptor memref(descriptor);
  const int64_t *sizes = memref.sizes();
  const int64_t *strides = memref.strides(rank);
  int64_t elementBytes = kTensorMapElementBytes[dataType];
  char *start = memref.aligned() + memref.offset() * elementBytes;
  // CUtensorMap's arrays run innermost first.
  uint64_t globalDim[5] = {1, 1, 1, 1, 1}, globalStrides[4] = {0, 0, 0, 0};
  uint32_t boxDim[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
  bool aligned = reinterpret_cast<uintptr_t>(start) % 16 == 0 &&
                 strides[rank - 1] == 1;
  for (int64_t i = 0; i < rank; ++i) {
    globalDim[i] = static_cast<uint64_t>(sizes[rank - 1 - i]);
    boxDim[i] = static_cast<uint32_t>(box[rank - 1 - i]);
  }
  for (int64_t i = 0; i + 1 < rank; ++i) {
    globalStrides[i] =
        static_cast<uint64_t>(strides[rank - 2 - i] * elementBytes);
    aligned = aligned && globalStrides[i] % 16 == 0;
  }
  if (!aligned) {
    std::string shape;
    for (int64_t i = 0; i < rank; ++i)
      shape += (i ? "x" : "") + std::to_string(sizes[i]);
    record("a TMA operand (" + shape + ", row stride " +
           std::to_string(rank > 1 ? strides[rank - 2] * elementBytes : 0) +
           " B, inner stride " + std::to_string(strides[rank - 1]) +
           ") is not laid out for TMA: the start must be 16-byte aligned, "
           "the rows contiguous and a multiple of 16 bytes apart");
    return nullptr;
  }
  CUtensorMap map;
  if (!ok(*d,
          d->api().cuTensorMapEncodeTiled(
              &map, static_cast<int>(dataType), static_cast<uint32_t>(rank),
              start, globalDim, globalStrides, boxDim, elementStrides,
              static_cast<int>(interleave), static_cast<int>(swizzle),
              static_cast<int>(l2Promotion), static_cast<int>(oobFill)),
          "cuTensorMapEncodeTiled"))
    return nullptr;
  return reinterpret_cast<void *>(getDeviceTensorMap(*d, map));
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0)
    record("only device 0 is supported by the QiMeng runtime");
}

} // extern "C"

llvm::ArrayRef<runtime::Symbol> mlir::qimeng::runtime::getMgpuSymbols() {
#define QIMENG_SYMBOL(fn)                                                      \
  {                                                                            \
    #fn, reinterpret_cast<void *>(&fn)                                         \
  }
  static const Symbol symbols[] = {
      QIMENG_SYMBOL(mgpuModuleLoad),
      QIMENG_SYMBOL(mgpuModuleLoadJIT),
      QIMENG_SYMBOL(mgpuModuleUnload),
      QIMENG_SYMBOL(mgpuModuleGetFunction),
      QIMENG_SYMBOL(mgpuLaunchKernel),
      QIMENG_SYMBOL(mgpuStreamCreate),
      QIMENG_SYMBOL(mgpuStreamDestroy),
      QIMENG_SYMBOL(mgpuStreamSynchronize),
      QIMENG_SYMBOL(mgpuStreamWaitEvent),
      QIMENG_SYMBOL(mgpuEventCreate),
      QIMENG_SYMBOL(mgpuEventDestroy),
      QIMENG_SYMBOL(mgpuEventSynchronize),
      QIMENG_SYMBOL(mgpuEventRecord),
      QIMENG_SYMBOL(mgpuMemAlloc),
      QIMENG_SYMBOL(mgpuMemFree),
      QIMENG_SYMBOL(mgpuMemcpy),
      QIMENG_SYMBOL(mgpuMemset32),
      QIMENG_SYMBOL(mgpuMemset16),
      QIMENG_SYMBOL(mgpuSetDefaultDevice),
      QIMENG_SYMBOL(mgpuTensorMapEncodeTiledMemref),
      {"malloc", reinterpret_cast<void *>(&qimengHostMalloc)},
      {"free", reinterpret_cast<void *>(&qimengHostFree)},
  };
#undef QIMENG_SYMBOL
  return symbols;
}
