//===- CudaDriverTest.cpp - The runtime without a GPU ---------------------===//
//
// The driver is loaded at run time: with no libcuda (forced here with
// $QIMENG_LIBCUDA) everything still links and reports one clear error, and
// the mgpu* calls record it instead of crashing.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Runtime/MgpuRuntime.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir::qimeng;

extern "C" void *mgpuStreamCreate();
extern "C" void *mgpuMemAlloc(uint64_t, void *, bool);

namespace {

// The driver is loaded once per process: this test forces the missing
// library before anything else asks for it.
TEST(CudaDriverTest, MissingDriverIsAClearError) {
  setenv("QIMENG_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
  ASSERT_FALSE(static_cast<bool>(driver));
  std::string message = llvm::toString(driver.takeError());
  EXPECT_EQ(message.rfind("no CUDA driver/GPU found: cannot load "
                          "/nonexistent/libcuda.so.1",
                          0),
            0u)
      << message;

  // The host calls of lowered code record the error and return null.
  EXPECT_EQ(runtime::takeError(), std::nullopt);
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  EXPECT_EQ(mgpuMemAlloc(1024, nullptr, false), nullptr);
  std::optional<std::string> recorded = runtime::takeError();
  ASSERT_TRUE(recorded.has_value());
  EXPECT_NE(recorded->find("no CUDA driver/GPU found"), std::string::npos);
  // Taken once: the next call starts clean.
  EXPECT_EQ(runtime::takeError(), std::nullopt);
}

TEST(CudaDriverTest, ExportsTheMlir22HostAbi) {
  llvm::StringSet<> names;
  for (const runtime::Symbol &symbol : runtime::getMgpuSymbols()) {
    EXPECT_NE(symbol.address, nullptr) << symbol.name;
    names.insert(symbol.name);
  }
  // What MLIR 22's GPU lowering declares for kernels, memory and streams.
  for (const char *name :
       {"mgpuModuleLoad", "mgpuModuleLoadJIT", "mgpuModuleUnload",
        "mgpuModuleGetFunction", "mgpuLaunchKernel", "mgpuStreamCreate",
        "mgpuStreamDestroy", "mgpuStreamSynchronize", "mgpuMemAlloc",
        "mgpuMemFree", "mgpuMemcpy", "mgpuMemset32", "mgpuMemset16",
        "mgpuEventCreate", "mgpuEventRecord", "mgpuEventSynchronize"})
    EXPECT_TRUE(names.contains(name)) << name;
}

} // namespace
