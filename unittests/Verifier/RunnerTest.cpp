//===- RunnerTest.cpp - Arguments in and out of a run, on the host --------===//
//
// The CPU runner (the verifier's CPU reference) shares argument handling
// with the GPU one: seeded inputs, poisoned outputs, what comes back, the
// check that inputs are unchanged. Here without a GPU.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Verifier/Runner.h"
#include "QiMeng/InitAll.h"
#include "QiMeng/Verifier/Verifier.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/TargetSelect.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// y = relu(x), returning y (destination-passing style); with `clobber`,
/// x is overwritten too (a cheat).
std::string relu(bool clobber) {
  std::string body = R"mlir(
#id = affine_map<(i) -> (i)>
func.func @relu(%x: memref<64xf32>, %y: memref<64xf32>) -> memref<64xf32> {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
)mlir";
  if (clobber)
    body += R"mlir(
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%x : memref<64xf32>) {
  ^bb0(%o: f32):
    %one = arith.constant 1.0 : f32
    linalg.yield %one : f32
  }
)mlir";
  return body + "  return %y : memref<64xf32>\n}\n";
}

class RunnerTest : public ::testing::Test {
protected:
  RunnerTest() {
    // The host code is JIT-compiled for this machine.
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    registerAllPasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
  }
  RunResult run(bool clobber, bool copyInputsOut) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(relu(clobber), &ctx);
    EXPECT_TRUE(module);
    auto runner = Runner::create(*module, "relu", RunnerMode::Cpu);
    if (!runner) {
      ADD_FAILURE() << llvm::toString(runner.takeError());
      return {};
    }
    RunOptions options;
    options.seed = 3;
    options.poisonOutputs = true;
    options.copyInputsOut = copyInputsOut;
    // As the verifier does: the outputs are what the reference writes.
    options.outputArgs = {false, true};
    llvm::Expected<RunResult> result = (*runner)->run(options);
    if (!result) {
      ADD_FAILURE() << llvm::toString(result.takeError());
      return {};
    }
    return std::move(*result);
  }

  MLIRContext ctx;
};

TEST_F(RunnerTest, TheReturnedOutputIsNotCopiedTwice) {
  RunResult result = run(/*clobber=*/false, /*copyInputsOut=*/true);
  ASSERT_EQ(result.args.size(), 2u);
  ASSERT_EQ(result.results.size(), 1u);
  ASSERT_EQ(result.resultAliases.size(), 1u);
  EXPECT_EQ(result.resultAliases[0], 1);
  EXPECT_TRUE(result.results[0].bytes.empty());
  EXPECT_EQ(&result.getResult(0), &result.args[1]);
  EXPECT_EQ(result.args[0].bytes.size(), 64u * 4);
  EXPECT_TRUE(result.changedInputs.empty());
  // relu of the seeded input: no NaN poison left, negatives gone.
  const float *y = reinterpret_cast<const float *>(result.args[1].bytes.data());
  const float *x = reinterpret_cast<const float *>(result.args[0].bytes.data());
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(y[i], std::max(x[i], 0.0f)) << "at " << i;
}

TEST_F(RunnerTest, InputsLeftOnTheDeviceAreStillCheckedForChanges) {
  RunResult kept = run(/*clobber=*/false, /*copyInputsOut=*/false);
  ASSERT_EQ(kept.args.size(), 2u);
  EXPECT_TRUE(kept.args[0].bytes.empty());
  EXPECT_EQ(kept.args[0].shape, SmallVector<int64_t>{64});
  EXPECT_EQ(kept.args[1].bytes.size(), 64u * 4);
  EXPECT_TRUE(kept.changedInputs.empty());

  RunResult clobbered = run(/*clobber=*/true, /*copyInputsOut=*/false);
  ASSERT_EQ(clobbered.changedInputs.size(), 1u);
  EXPECT_EQ(clobbered.changedInputs[0], 0u);
}

TEST_F(RunnerTest, SeededInputsAreTheSameForEveryRunOfASeed) {
  RunResult first = run(false, true), second = run(false, true);
  EXPECT_EQ(first.args[0].bytes, second.args[0].bytes);
  EXPECT_EQ(first.args[1].bytes, second.args[1].bytes);
}

} // namespace

namespace {

// The verifier end to end on the host (--cpu --verify): the seed is drawn
// and recorded, and the last timed call's outputs are judged too.
TEST_F(RunnerTest, VerifyRecordsItsSeedAndChecksTheTimedCalls) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(relu(/*clobber=*/false), &ctx);
  ASSERT_TRUE(module);
  auto verifier = Verifier::create(*module, "relu", *module, ReferenceOn::Cpu,
                                   RunnerMode::Cpu);
  ASSERT_TRUE(bool(verifier)) << llvm::toString(verifier.takeError());
  VerifyOptions options;
  options.trials = 2;
  options.timing = TimingOptions{/*warmup=*/1, /*runs=*/2, /*flushL2=*/false};
  llvm::Expected<VerifyReport> first = (*verifier)->verify(options);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_TRUE(first->ok);
  ASSERT_EQ(first->trials.size(), 2u);
  EXPECT_EQ(first->trials[0].seed, first->seed);
  EXPECT_EQ(first->trials[1].seed, first->seed + 1);
  ASSERT_TRUE(first->afterTiming.has_value());
  EXPECT_TRUE(first->afterTiming->ok) << first->afterTiming->reason;
  EXPECT_EQ(first->afterTiming->outputs.size(), 1u);
  // A second check draws other inputs; a given seed replays.
  llvm::Expected<VerifyReport> second = (*verifier)->verify(options);
  ASSERT_TRUE(bool(second));
  EXPECT_NE(first->seed, second->seed);
  options.seed = first->seed;
  llvm::Expected<VerifyReport> replay = (*verifier)->verify(options);
  ASSERT_TRUE(bool(replay));
  EXPECT_EQ(replay->seed, first->seed);
}

} // namespace
