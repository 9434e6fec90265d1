//===- Runner.h - Compile, JIT and run a kernel on the GPU -----*- C++ -*-===//
//
// The runner takes a module with linalg kernels (tensors or memrefs), compiles
// it with the embedded default (--llm-plan, --lower-to-nvvm), JITs the host
// code with MLIR's ExecutionEngine against QiMeng's mgpu* runtime, builds the
// entry function's arguments in CUDA managed memory from its signature and
// runs it. The verifier (reference, comparison, anti-cheat, timing) builds on
// it.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_RUNNER_H
#define QIMENG_VERIFIER_RUNNER_H

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/IR/EqualDims.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::qimeng {

/// A memref argument or result, copied back to the host after a run.
struct HostBuffer {
  Type element;
  SmallVector<int64_t> shape;
  std::vector<char> bytes;
};

struct RunOptions {
  /// Seed of the input generator.
  uint64_t seed = 0;
  /// f32 and f64 inputs are scaled by 2^inputScaleLog2 (see fillRandom).
  int inputScaleLog2 = 0;
  /// Fill the arguments the function writes with poison (fillPoison of
  /// `poisonPattern`) instead of random data, and the buffers it allocates
  /// (its returned results) with 0xFF bytes (pattern 0: NaN, -1) or 0x7F
  /// bytes (pattern 1: near the largest value of the type), so a kernel that
  /// leaves any element unwritten cannot pass: no written value equals both
  /// patterns, and the verifier's trials alternate them.
  bool poisonOutputs = false;
  unsigned poisonPattern = 0;
  /// The arguments treated as outputs (poisoned when asked, not checked for
  /// changes); empty means the ones this runner's function writes.
  SmallVector<bool> outputArgs;
  /// Sizes of the dynamic dimensions, per argument index (in order).
  std::map<unsigned, SmallVector<int64_t>> dynamicSizes;
  /// Contents of arguments given by the caller (e.g. read from .npy), per
  /// argument index: used as they are (never poisoned); their shapes give the
  /// dynamic sizes.
  std::map<unsigned, HostBuffer> inputs;
  /// Copy the arguments that are not outputs back to the host too
  /// (qimeng-run writes every argument out). Without, RunResult::args holds
  /// only their type and shape; whether they changed is checked all the
  /// same.
  bool copyInputsOut = true;
};

/// The timing protocol: `warmup` untimed calls, then `runs` calls each
/// timed with CUDA events on the stream the kernels run on, with the L2
/// cache flushed before every call (by writing twice its size).
struct TimingOptions {
  unsigned warmup = 10;
  unsigned runs = 100;
  bool flushL2 = true;
};

/// Statistics of the timed calls, in milliseconds.
struct Timing {
  unsigned warmup = 0, runs = 0;
  /// Bytes written to flush the L2 before each call (0: not flushed).
  int64_t flushBytes = 0;
  double minMs = 0, medianMs = 0, meanMs = 0, stddevMs = 0, maxMs = 0;
};

/// min/median/mean/stddev (population)/max of `samples` (not empty).
Timing summarizeSamples(llvm::ArrayRef<double> samples);

struct RunResult {
  /// Every argument after the run (inputs and destination buffers).
  SmallVector<HostBuffer> args;
  /// The memrefs the function returns; see getResult.
  SmallVector<HostBuffer> results;
  /// Per result, the argument whose buffer it is (a destination-passing
  /// function returns its destination): its contents are that argument's,
  /// not copied twice. -1 (or missing): a buffer of its own.
  SmallVector<int> resultAliases;
  /// The argument result `i` aliases, -1 if none.
  int getAlias(unsigned i) const {
    return i < resultAliases.size() ? resultAliases[i] : -1;
  }
  /// The contents of result `i`: its own or the argument's it aliases.
  const HostBuffer &getResult(unsigned i) const {
    int alias = getAlias(i);
    return alias >= 0 ? args[alias] : results[i];
  }
  /// Wall-clock time of the call, kernels synchronized (host code and
  /// allocations included; `Runner::time` is the measurement).
  double milliseconds = 0;
  /// Arguments the function does not write whose contents changed anyway.
  SmallVector<unsigned> changedInputs;
};

/// How a runner compiles the module it is given.
enum class RunnerMode {
  /// The module's plans (the built-in planner's where it has none), lowered
  /// to GPU code: the candidate.
  Planned,
  /// Plain plans (`llm-plan{naive}`: one thread per output, none of the
  /// optimizing actions) on the GPU: a reference for large problems.
  NaiveGpu,
  /// No plans: linalg lowered to loops on the host and run by the JIT
  /// (arguments in host memory, no GPU needed): a reference that shares no
  /// code generation with the candidate.
  Cpu,
};

class Runner {
public:
  ~Runner();

  /// Compiles `module` (not modified) unless it is lowered already (output
  /// of `--lower-to-nvvm`, which records the memref signature), and JITs the
  /// host code of `entry`, which must take and return memrefs (tensors
  /// before bufferization) of f32, f16, bf16, f64, i1, i8, i16, i32, i64 or
  /// index.
  /// Loading the kernels needs the GPU: with none, fails with "no CUDA
  /// driver/GPU found: ...", except in `RunnerMode::Cpu`. The seconds of
  /// its phases (PhaseTimes.h) are named with `phasePrefix` first.
  /// `wideReductions` (references only): reductions accumulate in f64
  /// (qimeng-widen-accumulators), so the reference is the accurate side.
  static llvm::Expected<std::unique_ptr<Runner>>
  create(ModuleOp module, llvm::StringRef entry,
         RunnerMode mode = RunnerMode::Planned,
         llvm::StringRef phasePrefix = "", bool wideReductions = false);

  /// Allocates the arguments (managed memory; host memory on the CPU), fills
  /// them with seeded data (see fillRandom) or poison, calls the function
  /// and copies every argument and result back.
  llvm::Expected<RunResult> run(const RunOptions &options);

  /// Times the function on inputs built as `run` builds them (outputs are
  /// not poisoned: NaN could change the speed), by the `timing` protocol.
  /// With `after`, also copies back what the last timed call left (the
  /// outputs RunOptions::outputArgs names, and the results), so the caller
  /// can check that the timed calls computed what the checked ones did.
  llvm::Expected<Timing> time(const RunOptions &inputs,
                              const TimingOptions &timing,
                              RunResult *after = nullptr);

  /// The JIT-compiled entry in the packed calling convention
  /// (ExecutionEngine::invokePacked): one pointer per scalar of each
  /// argument's expanded memref descriptor, then one to the storage of the
  /// returned descriptors. For callers that bring their own buffers (the
  /// runtime's C API); valid while the runner lives.
  llvm::Expected<void (*)(void **)> lookupPacked() const;

  llvm::ArrayRef<MemRefType> getArgTypes() const { return argTypes; }
  /// Whether the function writes argument I (found from the memory effects
  /// of the compiled function, through views).
  llvm::ArrayRef<bool> getWrittenArgs() const { return writtenArgs; }
  llvm::ArrayRef<MemRefType> getResultTypes() const { return resultTypes; }
  /// Whether it runs on the host (RunnerMode::Cpu).
  bool isOnCpu() const { return onCpu; }
  /// Whether its code computes f32 products as tf32 (the module carries
  /// QiMengDialect::kTf32AttrName once compiled).
  bool computesTf32() const { return tf32; }

private:
  Runner() = default;
  std::string entry;
  SmallVector<MemRefType> argTypes, resultTypes;
  SmallVector<bool> writtenArgs;
  /// Argument sizes the function ties together (EqualDims.h).
  SmallVector<std::pair<ArgDim, ArgDim>> equalDims;
  bool onCpu = false;
  bool tf32 = false;
  /// Before the names of the phases it times.
  std::string phasePrefix;
  std::unique_ptr<ExecutionEngine> engine;
};

/// Fills `count` elements of `element` type at `data` from a generator
/// seeded with `seed`: uniform numbers in [-1, 1) (floating point, rounded
/// to the type; f32 and f64 times 2^scaleLog2, exactly), uniform integers in
/// [0, 15] (i1: 0 or 1).
void fillRandom(Type element, int64_t count, uint64_t seed, void *data,
                int scaleLog2 = 0);

/// Fills `count` elements with a poison value: quiet NaN for floating
/// point; for integers 0x7f bytes (pattern 0) or 0x80 bytes (pattern 1),
/// neither of which is 0 or 1 for i1.
void fillPoison(Type element, int64_t count, void *data, unsigned pattern = 0);

/// The byte that returned buffers are poisoned with in `pattern`.
int getAllocationPoisonByte(unsigned pattern);

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_RUNNER_H
