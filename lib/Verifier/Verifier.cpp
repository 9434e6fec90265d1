//===- Verifier.cpp - Check compiled kernels against a reference ----------===//

#include "QiMeng/Verifier/Verifier.h"

#include "QiMeng/Support/Blocks.h"
#include "QiMeng/Verifier/PhaseTimes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::qimeng;

char ReferenceError::ID;

Tolerance mlir::qimeng::getDefaultTolerance(Type element,
                                            int64_t reductionLength,
                                            bool tf32) {
  if (!isa<FloatType>(element))
    return {};
  // f16 without reductions: a few units in the last place (2^-10 is one),
  // enough for a different but correctly rounded evaluation of each
  // element; with reductions, room for another summation order. bf16's
  // unit in the last place is already 2^-7 (relative, 2^-8 to 2^-7): 1.6e-2,
  // torch.testing's bf16 default, leaves two of them for a chain of bf16
  // roundings (a matmul rounded, a bias added and rounded, GELU) whose first
  // rounding fell the other way (16.5 for 16.75 on linear + bias + GELU).
  // tf32 products keep f16's 10 bits of mantissa (truncated, not rounded):
  // f16's allowance for sums.
  double tolerance = 1e-4;
  if (element.isBF16())
    tolerance = 1.6e-2;
  else if (element.isF16())
    tolerance = reductionLength > 1 ? 1e-2 : 3e-3;
  else if (tf32 && element.isF32())
    tolerance = 1e-2;
  return {tolerance, tolerance, /*scaled=*/true,
          std::max<int64_t>(1, reductionLength)};
}

int64_t mlir::qimeng::getReductionLength(ModuleOp module) {
  uint64_t longest = 1;
  module.walk([&](linalg::LinalgOp op) {
    uint64_t length = 1;
    for (auto [range, type] :
         llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
      if (type == utils::IteratorType::reduction)
        // A dynamic range counts as long as the allowance starts widening.
        length = llvm::SaturatingMultiply(
            length, ShapedType::isDynamic(range)
                        ? uint64_t(kToleranceReductionLength)
                        : uint64_t(range));
    longest = std::max(longest, length);
  });
  return static_cast<int64_t>(std::min<uint64_t>(longest, INT64_MAX));
}

/// Calls `body` with a function that reads element i of `buffer` as a
/// double: a plain load for f32 (the common, large case), getElement else.
template <typename Body>
static void withReader(const HostBuffer &buffer, Body body) {
  if (buffer.element.isF32()) {
    const char *data = buffer.bytes.data();
    body([data](int64_t i) {
      float value;
      std::memcpy(&value, data + i * 4, 4);
      return double(value);
    });
    return;
  }
  body([&buffer](int64_t i) { return getElement(buffer, i); });
}

int64_t mlir::qimeng::getToleranceGroupSize(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  if (shape.size() >= 2 && shape.back() >= kToleranceGroupMin)
    return shape.back();
  return std::max<int64_t>(1, count);
}

AbsoluteTolerance mlir::qimeng::getAbsoluteTolerance(const HostBuffer &expected,
                                                     Tolerance tolerance) {
  AbsoluteTolerance result;
  if (!tolerance.scaled || !isa<FloatType>(expected.element)) {
    result.perGroup.assign(1, tolerance.atol);
    return result;
  }
  int64_t count = expected.bytes.size() / getElementBytes(expected.element);
  int64_t groupSize = getToleranceGroupSize(expected.shape);
  int64_t groups = std::max<int64_t>(1, llvm::divideCeil(count, groupSize));
  result.groupSize = groupSize;
  // Sums of squares and finite counts per group, from blocks of elements
  // (a block may start or end inside a group: its partial sums are added).
  struct Squares {
    int64_t firstGroup = 0;
    std::vector<double> sums;
    std::vector<int64_t> finite;
  };
  std::vector<Squares> blocks;
  withReader(expected, [&](auto read) {
    blocks = mapBlocks<Squares>(count, [&](int64_t begin, int64_t end) {
      Squares squares;
      squares.firstGroup = begin / groupSize;
      int64_t last = end > begin ? (end - 1) / groupSize : squares.firstGroup;
      squares.sums.assign(last - squares.firstGroup + 1, 0);
      squares.finite.assign(last - squares.firstGroup + 1, 0);
      for (int64_t i = begin; i < end; ++i) {
        double value = read(i);
        if (std::isfinite(value)) {
          int64_t g = i / groupSize - squares.firstGroup;
          squares.sums[g] += value * value;
          ++squares.finite[g];
        }
      }
      return squares;
    });
  });
  std::vector<double> sums(groups, 0);
  std::vector<int64_t> finite(groups, 0);
  double allSquares = 0;
  int64_t allFinite = 0;
  for (const Squares &block : blocks)
    for (size_t g = 0; g < block.sums.size(); ++g) {
      sums[block.firstGroup + g] += block.sums[g];
      finite[block.firstGroup + g] += block.finite[g];
      allSquares += block.sums[g];
      allFinite += block.finite[g];
    }
  double outputRms = allFinite ? std::sqrt(allSquares / allFinite) : 0;
  double length = std::max(1.0, std::sqrt(double(tolerance.reductionLength) /
                                          double(kToleranceReductionLength)));
  result.perGroup.resize(groups);
  for (int64_t g = 0; g < groups; ++g) {
    double rms = finite[g] ? std::sqrt(sums[g] / finite[g]) : 0;
    double scale = std::max(rms, kToleranceGroupFloor * outputRms);
    result.perGroup[g] = tolerance.atol * scale * length;
  }
  return result;
}

/// A value with the digits that tell two nearby floats apart.
static std::string formatValue(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

double mlir::qimeng::getElement(const HostBuffer &buffer, int64_t index) {
  Type element = buffer.element;
  int64_t bytes = getElementBytes(element);
  const char *at = buffer.bytes.data() + index * bytes;
  // The common types directly; APFloat (slow) for the narrow ones.
  if (element.isF32()) {
    float value;
    std::memcpy(&value, at, 4);
    return value;
  }
  if (element.isF64()) {
    double value;
    std::memcpy(&value, at, 8);
    return value;
  }
  uint64_t bits = 0;
  std::memcpy(&bits, at, bytes);
  if (auto floatType = dyn_cast<FloatType>(element)) {
    llvm::APFloat value(floatType.getFloatSemantics(),
                        llvm::APInt(bytes * 8, bits));
    bool lossy = false;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lossy);
    return value.convertToDouble();
  }
  // i1 as the byte it is stored in: 0 or 1 when written, anything else is
  // poison (or a kernel storing garbage).
  if (element.isInteger(1))
    return bits & 0xff;
  // Sign-extend the integer.
  unsigned width = bytes * 8;
  return static_cast<double>(llvm::SignExtend64(bits, width));
}

std::string mlir::qimeng::formatIndex(llvm::ArrayRef<int64_t> shape,
                                      int64_t index) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    position[d] = shape[d] ? index % shape[d] : 0;
    index = shape[d] ? index / shape[d] : 0;
  }
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(position, os);
  os << "]";
  return out;
}

Comparison mlir::qimeng::compareBuffers(const HostBuffer &got,
                                        const HostBuffer &expected,
                                        Tolerance tolerance) {
  Comparison result;
  if (got.element != expected.element || got.shape != expected.shape ||
      got.bytes.size() != expected.bytes.size()) {
    result.ok = false;
    result.reason = "type or shape differs from the reference";
    return result;
  }
  int64_t count = got.bytes.size() / getElementBytes(got.element);
  bool integer = !isa<FloatType>(got.element);
  AbsoluteTolerance atol = getAbsoluteTolerance(expected, tolerance);
  struct Errors {
    double maxAbs = 0, maxRel = 0, margin = 0;
    int64_t firstMismatch = -1;
  };
  std::vector<Errors> blocks;
  withReader(got, [&](auto readGot) {
    withReader(expected, [&](auto readExpected) {
      blocks = mapBlocks<Errors>(count, [&](int64_t begin, int64_t end) {
        Errors errors;
        for (int64_t i = begin; i < end; ++i) {
          double a = readGot(i), b = readExpected(i);
          bool match;
          if (integer) {
            match = a == b;
          } else if (!std::isfinite(b)) {
            // The reference itself is NaN/inf here: the same class is
            // expected.
            match = std::isnan(b) ? std::isnan(a) : a == b;
          } else if (!std::isfinite(a)) {
            match = false;
          } else {
            double abs = std::fabs(a - b);
            errors.maxAbs = std::max(errors.maxAbs, abs);
            // Relative errors of expected values near zero say nothing.
            if (std::fabs(b) > 1e-6)
              errors.maxRel = std::max(errors.maxRel, abs / std::fabs(b));
            double allowed = atol(i) + tolerance.rtol * std::fabs(b);
            match = abs <= allowed;
            if (abs > 0)
              errors.margin = std::max(
                  errors.margin, allowed > 0
                                     ? abs / allowed
                                     : std::numeric_limits<double>::infinity());
          }
          if (!match) {
            if (integer || !std::isfinite(a) || !std::isfinite(b))
              errors.margin = std::numeric_limits<double>::infinity();
            if (errors.firstMismatch < 0)
              errors.firstMismatch = i;
          }
        }
        return errors;
      });
    });
  });
  for (const Errors &block : blocks) {
    result.maxAbsError = std::max(result.maxAbsError, block.maxAbs);
    result.maxRelError = std::max(result.maxRelError, block.maxRel);
    result.margin = std::max(result.margin, block.margin);
    if (result.firstMismatch < 0)
      result.firstMismatch = block.firstMismatch;
  }
  if (int64_t i = result.firstMismatch; i >= 0) {
    double a = getElement(got, i), b = getElement(expected, i);
    result.ok = false;
    result.reason = "at " + formatIndex(got.shape, i) + ": got " +
                    formatValue(a) + ", expected " + formatValue(b);
    if (!integer && std::isfinite(a) && std::isfinite(b))
      result.reason += " (allowed error " +
                       formatValue(atol(i) + tolerance.rtol * std::fabs(b)) +
                       ")";
  }
  // A constant output where the reference varies (e.g. all zeros) is a
  // cheat even when the values happen to be within tolerance.
  auto isConstant = [&](const HostBuffer &buffer) {
    int64_t bytes = getElementBytes(buffer.element);
    const char *data = buffer.bytes.data();
    std::vector<char> blocks =
        mapBlocks<char>(count, [&](int64_t begin, int64_t end) {
          for (int64_t i = std::max<int64_t>(begin, 1); i < end; ++i)
            if (std::memcmp(data, data + i * bytes, bytes) != 0)
              return char(false);
          return char(true);
        });
    return llvm::all_of(blocks, [](char constant) { return constant; });
  };
  if (result.ok && count > 1 && isConstant(got) && !isConstant(expected)) {
    result.ok = false;
    result.reason = llvm::formatv("constant output ({0}) where the reference "
                                  "varies",
                                  getElement(got, 0));
  }
  return result;
}

RunnerMode mlir::qimeng::chooseReferenceMode(ModuleOp module) {
  uint64_t iterations = 0;
  bool dynamic = false;
  module.walk([&](linalg::LinalgOp op) {
    uint64_t product = 1;
    for (int64_t range : op.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        dynamic = true;
      else
        product = llvm::SaturatingMultiply(product, uint64_t(range));
    }
    iterations = llvm::SaturatingAdd(iterations, product);
  });
  return dynamic || iterations > uint64_t(kCpuReferenceIterations)
             ? RunnerMode::NaiveGpu
             : RunnerMode::Cpu;
}

llvm::Expected<std::shared_ptr<SharedReference>>
SharedReference::create(ModuleOp original, llvm::StringRef entry,
                        ReferenceOn referenceOn, bool wideReductions) {
  RunnerMode mode = referenceOn == ReferenceOn::Cpu ? RunnerMode::Cpu
                    : referenceOn == ReferenceOn::Gpu
                        ? RunnerMode::NaiveGpu
                        : chooseReferenceMode(original);
  auto runner = Runner::create(original, entry, mode, kReferencePhasePrefix,
                               wideReductions);
  if (!runner)
    return llvm::make_error<ReferenceError>("the reference does not compile: " +
                                            llvm::toString(runner.takeError()));
  auto shared = std::make_shared<SharedReference>();
  shared->runner = std::move(*runner);
  shared->reductionLength = mlir::qimeng::getReductionLength(original);
  return shared;
}

llvm::Expected<std::unique_ptr<Verifier>>
Verifier::create(ModuleOp module, llvm::StringRef entry,
                 std::shared_ptr<SharedReference> reference) {
  auto candidate = Runner::create(module, entry, RunnerMode::Planned);
  if (!candidate)
    return candidate.takeError();
  return assemble(std::move(*candidate), std::move(reference), entry);
}

llvm::Expected<std::unique_ptr<Verifier>>
Verifier::create(ModuleOp module, llvm::StringRef entry,
                 ModuleOp referenceModule, ReferenceOn referenceOn,
                 RunnerMode candidateMode, bool wideReductions) {
  if (!referenceModule && module.lookupSymbol<LLVM::LLVMFuncOp>(entry))
    return llvm::createStringError(
        "@" + entry +
        " is lowered already: give the original program as the reference");
  if (candidateMode == RunnerMode::Cpu &&
      module.lookupSymbol<LLVM::LLVMFuncOp>(entry))
    return llvm::createStringError(
        "@" + entry +
        " is lowered already: on the host only linalg programs are checked "
        "(run the lowered module on a GPU)");
  // The candidate compiles first: its errors are the ones to report.
  auto candidate = Runner::create(module, entry, candidateMode);
  if (!candidate)
    return candidate.takeError();
  llvm::Expected<std::shared_ptr<SharedReference>> reference =
      SharedReference::create(referenceModule ? referenceModule : module, entry,
                              referenceOn, wideReductions);
  if (!reference)
    return reference.takeError();
  (*reference)->keepResults = false;
  return assemble(std::move(*candidate), std::move(*reference), entry);
}

llvm::Expected<std::unique_ptr<Verifier>>
Verifier::assemble(std::unique_ptr<Runner> candidate,
                   std::shared_ptr<SharedReference> reference,
                   llvm::StringRef entry) {
  Runner &runner = reference->getRunner();
  if (candidate->getArgTypes() != runner.getArgTypes() ||
      candidate->getResultTypes() != runner.getResultTypes())
    return llvm::createStringError("@" + entry +
                                   " has another signature in the reference");
  std::unique_ptr<Verifier> verifier(new Verifier());
  verifier->candidate = std::move(candidate);
  verifier->reference = &runner;
  verifier->shared = std::move(reference);
  return verifier;
}

/// Whether any floating-point element of `buffer` is NaN.
static bool hasNaN(const HostBuffer &buffer) {
  if (!isa<FloatType>(buffer.element))
    return false;
  int64_t count = buffer.bytes.size() / getElementBytes(buffer.element);
  std::vector<char> blocks;
  withReader(buffer, [&](auto read) {
    blocks = mapBlocks<char>(count, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        if (std::isnan(read(i)))
          return char(true);
      return char(false);
    });
  });
  return llvm::any_of(blocks, [](char found) { return found; });
}

TrialReport mlir::qimeng::judgeTrial(const RunResult &got,
                                     const RunResult &expected,
                                     llvm::ArrayRef<bool> outputs,
                                     std::optional<Tolerance> tolerance,
                                     int64_t reductionLength, bool tf32) {
  TrialReport trial;
  auto failWith = [&](std::string reason) {
    if (trial.ok)
      trial.reason = std::move(reason);
    trial.ok = false;
  };
  for (unsigned index : got.changedInputs)
    failWith(llvm::formatv("input arg{0} was modified", index));
  auto compare = [&](std::string name, const HostBuffer &a,
                     const HostBuffer &b) {
    OutputReport output{name,
                        compareBuffers(a, b,
                                       tolerance.value_or(getDefaultTolerance(
                                           b.element, reductionLength, tf32)))};
    if (!output.comparison.ok)
      failWith(name + ": " + output.comparison.reason);
    trial.outputs.push_back(std::move(output));
  };
  if (got.args.size() != expected.args.size() ||
      outputs.size() != expected.args.size()) {
    failWith("the number of arguments differs from the reference");
    return trial;
  }
  for (auto [i, written] : llvm::enumerate(outputs))
    if (written)
      compare("arg" + std::to_string(i), got.args[i], expected.args[i]);
  if (got.results.size() != expected.results.size()) {
    failWith("the number of results differs from the reference");
    return trial;
  }
  for (unsigned i = 0; i < got.results.size(); ++i) {
    // The same output argument on both sides: compared above.
    int alias = got.getAlias(i);
    if (alias >= 0 && expected.getAlias(i) == alias && outputs[alias])
      continue;
    compare("result" + std::to_string(i), got.getResult(i),
            expected.getResult(i));
  }
  return trial;
}

llvm::Expected<VerifyReport> Verifier::verify(const VerifyOptions &options) {
  VerifyReport report;
  report.referenceOn = reference->isOnCpu() ? "cpu" : "gpu-naive";
  ArrayRef<bool> outputs = reference->getWrittenArgs();
  double candidateMs = 0, referenceMs = 0;
  report.seed = options.seed ? *options.seed : drawSeed();
  // The first trial's reference result, for checking the timed calls.
  const RunResult *firstExpected = nullptr;
  std::optional<RunResult> ownedFirst;
  for (unsigned t = 0; t < std::max(1u, options.trials); ++t) {
    RunOptions run = options.run;
    run.seed = report.seed + t;
    // Alternate poison patterns: an element left unwritten cannot equal
    // both.
    run.poisonPattern = t % 2;
    run.inputScaleLog2 = t % 3 == 1 ? kSmallInputsLog2 : 0;
    // The outputs are what the reference writes: whatever else the candidate
    // touches is an input it modified.
    run.outputArgs.assign(outputs.begin(), outputs.end());
    // Only the outputs are compared: the inputs stay on the GPU (checked
    // for changes in place).
    run.copyInputsOut = false;
    // The reference decides whether outputs may be poisoned: a function
    // that reads what its outputs held before (accumulates into them) must
    // get the same seeded contents on both sides instead.
    run.poisonOutputs = true;
    // A reference shared by several candidates runs once per seed; its
    // result (every argument: hundreds of MB for large kernels) is read in
    // place, not copied per candidate.
    std::pair<uint64_t, int> key(run.seed, run.inputScaleLog2);
    auto cached = shared->results.find(key);
    if (cached == shared->results.end()) {
      std::string readers;
      llvm::Expected<RunResult> ran = reference->run(run);
      if (!ran) {
        // A candidate that failed an earlier trial has failed: the
        // reference's own trouble later does not make that "could not run".
        if (!report.ok) {
          report.trials.back().note +=
              (report.trials.back().note.empty() ? "" : "; ") +
              ("the reference then failed to run: " +
               llvm::toString(ran.takeError()));
          break;
        }
        return llvm::make_error<ReferenceError>(
            "the reference failed to run: " + llvm::toString(ran.takeError()));
      }
      {
        PhaseTimer timer((kReferencePhasePrefix + phase::kCompare).str());
        for (auto [i, written] : llvm::enumerate(outputs))
          if (written && hasNaN(ran->args[i]))
            readers += " arg" + std::to_string(i);
        for (unsigned i = 0; i < ran->results.size(); ++i) {
          // An output argument it returns: scanned above.
          int alias = ran->getAlias(i);
          if (alias >= 0 && outputs[alias])
            continue;
          if (hasNaN(ran->getResult(i)))
            readers += " result" + std::to_string(i);
        }
      }
      if (!readers.empty()) {
        run.poisonOutputs = false;
        ran = reference->run(run);
        if (!ran)
          return llvm::make_error<ReferenceError>(
              "the reference failed to run: " +
              llvm::toString(ran.takeError()));
      }
      cached =
          shared->results
              .emplace(key, std::make_pair(std::move(*ran), std::move(readers)))
              .first;
    }
    const RunResult &expected = cached->second.first;
    const std::string &readers = cached->second.second;
    run.poisonOutputs = readers.empty();
    // The candidate runs afresh in every trial.
    llvm::Expected<RunResult> got = candidate->run(run);
    if (!got)
      return got.takeError();
    TrialReport trial;
    {
      PhaseTimer timer(phase::kCompare.str());
      trial = judgeTrial(*got, expected, outputs, options.tolerance,
                         shared->reductionLength, candidate->computesTf32());
    }
    trial.seed = run.seed;
    trial.inputScaleLog2 = run.inputScaleLog2;
    trial.poisoned = readers.empty();
    if (!readers.empty())
      trial.note = "the reference left NaN in" + readers +
                   ": outputs filled with seeded data instead of poison";
    trial.candidateMs = got->milliseconds;
    trial.referenceMs = expected.milliseconds;
    candidateMs += got->milliseconds;
    referenceMs += expected.milliseconds;
    report.ok &= trial.ok;
    report.trials.push_back(std::move(trial));
    if (t == 0 && options.timing && readers.empty())
      firstExpected = shared->keepResults ? &cached->second.first : nullptr;
    if (!shared->keepResults) {
      // The first trial's reference outlives the trials when the timed
      // calls are to be checked against it.
      if (t == 0 && options.timing && readers.empty()) {
        ownedFirst = std::move(cached->second.first);
        firstExpected = &*ownedFirst;
      }
      shared->results.erase(cached);
    }
  }
  if (options.timing) {
    RunOptions inputs = options.run;
    inputs.seed = report.seed;
    inputs.outputArgs.assign(outputs.begin(), outputs.end());
    RunResult after;
    llvm::Expected<Timing> candidateTiming = candidate->time(
        inputs, *options.timing, firstExpected ? &after : nullptr);
    if (!candidateTiming)
      return candidateTiming.takeError();
    if (firstExpected) {
      PhaseTimer timer(phase::kCompare.str());
      TrialReport trial =
          judgeTrial(after, *firstExpected, outputs, options.tolerance,
                     shared->reductionLength, candidate->computesTf32());
      trial.seed = report.seed;
      trial.note = "the outputs of the last timed call";
      if (!trial.ok)
        trial.reason = "after the timed calls: " + trial.reason;
      report.ok &= trial.ok;
      report.afterTiming = std::move(trial);
    }
    report.candidateTiming = *candidateTiming;
    candidateMs = candidateTiming->medianMs;
    referenceMs = 0;
    // A GPU reference by the same protocol.
    if (!reference->isOnCpu() && options.timeReference) {
      llvm::Expected<Timing> referenceTiming =
          reference->time(inputs, *options.timing);
      if (!referenceTiming)
        return llvm::make_error<ReferenceError>(
            "timing the reference failed: " +
            llvm::toString(referenceTiming.takeError()));
      report.referenceTiming = *referenceTiming;
      referenceMs = referenceTiming->medianMs;
    }
  }
  // Only kernels against kernels: a host reference says nothing about speed.
  report.speedup =
      candidateMs > 0 && !reference->isOnCpu() ? referenceMs / candidateMs : 0;
  report.suspiciousSpeedup = report.speedup > 10;
  return report;
}
