//===- VerifyStepTest.cpp - The pass-level verify entry -------------------===//
//
// verifyStep runs qimeng-run in a child process. Without a GPU (forced here
// with QIMENG_LIBCUDA) a good candidate could not run; a candidate that does
// not compile fails before any GPU is needed; a missing tool is reported.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Verifier/VerifyStep.h"
#include "QiMeng/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

constexpr const char *kRelu = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%y : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
)mlir";

/// Takes a complex argument, which the runner cannot build.
constexpr const char *kComplex = R"mlir(
func.func @relu(%x: memref<4xcomplex<f32>>) {
  return
}
)mlir";

class VerifyStepTest : public ::testing::Test {
protected:
  VerifyStepTest() {
    registerAllDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    options.runTool = QIMENG_RUN_TOOL;
    options.timeoutSeconds = 120;
    // No GPU whatever machine runs the test.
    setenv("QIMENG_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  }
  ~VerifyStepTest() override { unsetenv("QIMENG_LIBCUDA"); }
  OwningOpRef<ModuleOp> parse(const char *text) {
    return parseSourceString<ModuleOp>(text, ctx.get());
  }
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> ctx;
  StepOptions options;
};

TEST_F(VerifyStepTest, WithoutAGpuACandidateCouldNotRun) {
  OwningOpRef<ModuleOp> module = parse(kRelu);
  ASSERT_TRUE(module);
  StepResult result = verifyStep(*module, *module, "relu", options);
  EXPECT_EQ(result.status, StepStatus::CouldNotRun) << result.reason;
  EXPECT_NE(result.reason.find("no CUDA driver/GPU found"), std::string::npos)
      << result.reason;
  EXPECT_EQ(result.report.getString("status"), "no-gpu");
  EXPECT_EQ(stringifyStepStatus(result.status), "could-not-run");
}

TEST_F(VerifyStepTest, ACandidateThatDoesNotCompileFails) {
  OwningOpRef<ModuleOp> reference = parse(kRelu);
  OwningOpRef<ModuleOp> candidate = parse(kComplex);
  ASSERT_TRUE(reference && candidate);
  StepResult result = verifyStep(*candidate, *reference, "relu", options);
  EXPECT_EQ(result.status, StepStatus::Fail) << result.reason;
  EXPECT_NE(result.reason.find("memref<4xcomplex<f32>>"), std::string::npos)
      << result.reason;
}

TEST_F(VerifyStepTest, AMissingToolIsReported) {
  OwningOpRef<ModuleOp> module = parse(kRelu);
  options.runTool = "/nonexistent/qimeng-run";
  StepResult result = verifyStep(*module, *module, "relu", options);
  EXPECT_EQ(result.status, StepStatus::CouldNotRun);
  EXPECT_NE(result.reason.find("/nonexistent/qimeng-run"), std::string::npos)
      << result.reason;
}

/// Writes `text` to a fresh file in `dir` and returns its path.
std::string writeFile(const llvm::SmallString<128> &dir, llvm::StringRef name,
                      llvm::StringRef text) {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  os << text;
  return std::string(path);
}

TEST_F(VerifyStepTest, ABatchGoesOnAfterACandidateThatFails) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("qimeng-batch", dir));
  std::string reference = writeFile(dir, "reference.mlir", kRelu);
  std::vector<std::string> candidates = {
      writeFile(dir, "broken.mlir", kComplex),
      writeFile(dir, "relu.mlir", kRelu)};
  std::vector<StepResult> results =
      verifyStepBatch(candidates, reference, "relu", options);
  ASSERT_EQ(results.size(), 2u);
  // The broken one fails alone; the next runs in a fresh process, which
  // finds no GPU.
  EXPECT_EQ(results[0].status, StepStatus::Fail) << results[0].reason;
  EXPECT_NE(results[0].reason.find("memref<4xcomplex<f32>>"), std::string::npos)
      << results[0].reason;
  EXPECT_EQ(results[1].status, StepStatus::CouldNotRun) << results[1].reason;
  EXPECT_NE(results[1].reason.find("no CUDA driver/GPU found"),
            std::string::npos)
      << results[1].reason;

  options.runTool = "/nonexistent/qimeng-run";
  results = verifyStepBatch(candidates, reference, "relu", options);
  ASSERT_EQ(results.size(), 2u);
  for (const StepResult &result : results)
    EXPECT_EQ(result.status, StepStatus::CouldNotRun);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
