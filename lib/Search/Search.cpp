//===- Search.cpp - Plans chosen by measuring them ------------------------===//

#include "QiMeng/Search/Search.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Support/TempDirectory.h"
#include "QiMeng/Target/CudaToolkit.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::qimeng;

#ifndef QIMENG_VERSION
#error "QIMENG_VERSION must be defined by the build"
#endif

llvm::StringRef mlir::qimeng::getQiMengVersion() { return QIMENG_VERSION; }

llvm::Expected<SearchDevices> mlir::qimeng::findSearchDevices() {
  llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
  if (!driver)
    return driver.takeError();
  llvm::Expected<cuda::DeviceInfo> info = cuda::getDeviceInfo(*driver);
  if (!info)
    return info.takeError();
  SearchDevices devices;
  devices.name = info->name;
  devices.computeMajor = info->computeMajor;
  devices.computeMinor = info->computeMinor;
  const cuda::DriverApi &f = driver->api();
  int count = 0;
  if (llvm::Error err =
          driver->check(f.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(err);
  // Only GPUs of device 0's model: their times are comparable.
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    cuda::CUdevice device = 0;
    char name[256] = {};
    if (f.cuDeviceGet(&device, ordinal) != cuda::kSuccess ||
        f.cuDeviceGetName(name, sizeof(name) - 1, device) != cuda::kSuccess)
      continue;
    if (devices.name == name)
      devices.ordinals.push_back(ordinal);
  }
  if (devices.ordinals.empty())
    devices.ordinals.push_back(0);
  return devices;
}

namespace {

using Clock = std::chrono::steady_clock;

/// Candidates one qimeng-run verifies and times in a row (the budget is
/// checked between batches), and the seconds each may take: the default
/// plan up to the most, the others a few times what the default's check
/// took (one that hangs costs no more), within bounds. The winner's final
/// check, with more trials, has the verifier's default limit.
constexpr size_t kBatchSize = 8;
constexpr unsigned kCandidateTimeoutSeconds = 60;
constexpr unsigned kMinCandidateTimeoutSeconds = 10;
constexpr double kCandidateTimeoutOverDefault = 4;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The text of a module holding `kernel`, the globals of `module` and (when
/// given) `plan` built from its JSON form; empty when the plan does not
/// build (`why` says why).
std::string printCandidateModule(ModuleOp module, func::FuncOp kernel,
                                 const llvm::json::Object *plan,
                                 std::string &why) {
  OwningOpRef<ModuleOp> copy = ModuleOp::create(kernel.getLoc());
  OpBuilder builder(kernel.getContext());
  builder.setInsertionPointToEnd(copy->getBody());
  for (auto global : module.getOps<memref::GlobalOp>())
    builder.clone(*global);
  builder.clone(*kernel);
  if (plan) {
    ErrorCollector errors(kernel.getContext());
    if (failed(planFromJSON(builder, kernel.getLoc(),
                            llvm::json::Value(llvm::json::Object(*plan))))) {
      why = errors.first("the plan does not build");
      return "";
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().enableDebugInfo(false));
  return text;
}

/// Compiles one candidate module's text to a lowered module's text in a
/// context of its own (so several compile at once); the diagnostics when it
/// fails.
CompiledCandidate compileCandidate(const DialectRegistry &registry,
                                   const std::string &text,
                                   llvm::StringRef lowering) {
  CompiledCandidate result;
  Clock::time_point start = Clock::now();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ErrorCollector errors(&context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  // Stored with the candidate: a bounded message.
  auto describe = [&](llvm::StringRef otherwise) {
    return errors.join("; ", otherwise).substr(0, 2000);
  };
  if (!module) {
    result.error = "the candidate does not parse: " + describe("");
    return result;
  }
  PassManager pm(&context);
  std::string pipelineErrors;
  llvm::raw_string_ostream pipelineOS(pipelineErrors);
  std::string pipeline =
      ("qimeng-realize-plans,lower-to-nvvm{" + lowering + "}").str();
  if (failed(parsePassPipeline(pipeline, pm, pipelineOS))) {
    result.error = "the pipeline '" + pipeline +
                   "' is not available here: " + pipelineErrors;
    return result;
  }
  if (failed(pm.run(*module))) {
    result.error = describe("the lowering failed");
    return result;
  }
  llvm::raw_string_ostream os(result.lowered);
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  result.seconds = secondsSince(start);
  return result;
}

llvm::Error writeText(llvm::StringRef path, llvm::StringRef text) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  });
}

} // namespace

std::vector<CompiledCandidate>
mlir::qimeng::compileCandidates(const DialectRegistry &registry,
                                llvm::ArrayRef<std::string> modules,
                                llvm::StringRef lowering, unsigned threads,
                                std::function<void(unsigned)> progress) {
  size_t count = modules.size();
  std::vector<CompiledCandidate> compiled(count);
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  // lower-to-nvvm sets the CUDA toolkit in the environment when it is
  // built: once here, before several threads build it.
  useFoundCudaToolkit();
  std::atomic<size_t> next{0};
  std::atomic<unsigned> done{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      if (!modules[i].empty())
        compiled[i] = compileCandidate(registry, modules[i], lowering);
      unsigned finished = ++done;
      if (progress)
        progress(finished);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < std::min<size_t>(threads, count); ++t)
    workers.emplace_back(worker);
  for (std::thread &w : workers)
    w.join();
  return compiled;
}

std::vector<int>
mlir::qimeng::findSameCode(llvm::ArrayRef<CompiledCandidate> compiled) {
  std::vector<int> twins(compiled.size(), -1);
  llvm::StringMap<int> first;
  for (auto [i, candidate] : llvm::enumerate(compiled)) {
    if (candidate.lowered.empty())
      continue;
    auto [at, inserted] = first.try_emplace(candidate.lowered, int(i));
    if (!inserted)
      twins[i] = at->second;
  }
  return twins;
}

SearchResult mlir::qimeng::searchPlans(ModuleOp module, PlanOp plan,
                                       func::FuncOp kernel,
                                       const TargetProfile &profile,
                                       const SearchOptions &options) {
  SearchResult result;
  Clock::time_point start = Clock::now();
  auto progress = [&](const llvm::Twine &line) {
    if (options.progress)
      options.progress(line);
  };
  auto finish = [&](std::string failure = "") {
    result.failure = std::move(failure);
    result.seconds = secondsSince(start);
    return std::move(result);
  };
  auto overBudget = [&] {
    return options.budgetSeconds > 0 &&
           secondsSince(start) > options.budgetSeconds;
  };

  CandidateSelection selection = selectCandidates(
      plan, kernel, profile, std::max(1u, options.maxCandidates), options.seed,
      options.proposed);
  result.generated = selection.generated;
  result.illegal = selection.illegal;
  result.pruned = selection.pruned;
  result.proposed = selection.proposed;
  std::string offered =
      options.proposed.empty()
          ? std::string()
          : llvm::formatv("{0} of {1} LLM plans and ", selection.proposed,
                          options.proposed.size())
                .str();
  progress(llvm::formatv("{0}{1} neighbours of the default plan: {2} "
                         "illegal, {3} pruned by the cost model; measuring "
                         "{4} candidates",
                         offered, selection.generated, selection.illegal,
                         selection.pruned, selection.candidates.size()));

  TempDirectory dir;
  if (std::error_code ec = dir.create("qimeng-search"))
    return finish("cannot create a scratch directory: " + ec.message());
  std::string why;
  std::string referenceText =
      printCandidateModule(module, kernel, nullptr, why);
  std::string referencePath = dir.in("reference.mlir");
  if (llvm::Error err = writeText(referencePath, referenceText))
    return finish(llvm::toString(std::move(err)));

  // Compile every candidate, in parallel, each in a context of its own; to
  // cubins when ptxas is there, so the GPU phase does not wait for the
  // driver to compile PTX (a second or more for a large matmul kernel).
  std::string format = options.format;
  if (format.empty())
    format = hasPtxas() ? "bin" : "isa";
  size_t count = selection.candidates.size();
  std::vector<std::string> texts(count), errors(count);
  for (size_t i = 0; i < count; ++i)
    texts[i] = printCandidateModule(module, kernel,
                                    &selection.candidates[i].plan, errors[i]);
  std::mutex progressMutex;
  std::vector<CompiledCandidate> compiled = compileCandidates(
      kernel.getContext()->getDialectRegistry(), texts,
      "chip=" + options.chip + " format=" + format, options.compileThreads,
      [&](unsigned finished) {
        std::lock_guard<std::mutex> lock(progressMutex);
        if (finished == count || finished % 8 == 0)
          progress(llvm::formatv("compiled {0}/{1} candidates ({2:F1} s)",
                                 finished, count, secondsSince(start)));
      });
  for (size_t i = 0; i < count; ++i)
    if (texts[i].empty())
      compiled[i].error = errors[i];
  result.compileSeconds = secondsSince(start);

  // Verify and time on the GPU(s), many candidates per qimeng-run (the
  // reference compiled and run once per seed for them all): the default
  // first, alone (it decides whether a search can run at all), then the
  // rest in batches, one worker per GPU, the budget checked between
  // batches.
  result.measured.resize(count);
  std::vector<std::string> paths(count);
  std::vector<size_t> pending;
  // Candidates with the same code as an earlier one take its measurement.
  std::vector<int> twins = findSameCode(compiled);
  unsigned sameCode = llvm::count_if(twins, [](int t) { return t >= 0; });
  if (sameCode)
    progress(llvm::formatv("{0} candidates compile to the same code as an "
                           "earlier one: measured once",
                           sameCode));
  for (size_t i = 0; i < count; ++i) {
    MeasuredCandidate &m = result.measured[i];
    m.candidate = selection.candidates[i];
    m.compileSeconds = compiled[i].seconds;
    if (compiled[i].lowered.empty()) {
      m.verdict = "compile-error";
      m.reason = compiled[i].error;
      continue;
    }
    m.compiled = true;
    if (twins[i] >= 0)
      continue;
    paths[i] = dir.in("candidate" + llvm::Twine(i) + ".mlir");
    if (llvm::Error err = writeText(paths[i], compiled[i].lowered)) {
      m.verdict = "could-not-run";
      m.reason = llvm::toString(std::move(err));
      continue;
    }
    compiled[i].lowered.clear();
    if (i > 0)
      pending.push_back(i);
  }
  // The batches' reference: the program with plain plans on the GPU. Every
  // batch is a fresh qimeng-run that computes it again, and on the CPU that
  // takes seconds for the benchmark's large normalizations (the automatic
  // choice keeps them there up to 2^28 iterations). Where the plain plans
  // do not run, the automatic choice instead. The winner's final check has
  // the automatic choice.
  ReferenceOn referenceOn = ReferenceOn::Gpu;
  unsigned candidateSeconds = kCandidateTimeoutSeconds;
  auto measureBatch = [&](ArrayRef<size_t> indices, std::optional<int> device) {
    std::vector<std::string> batch;
    for (size_t i : indices)
      batch.push_back(paths[i]);
    StepOptions step;
    step.trials = options.trials;
    // Inputs drawn fresh for each batch (the candidates' order keeps
    // options.seed).
    step.timing = options.timing;
    step.timeReference = false;
    step.referenceOn = referenceOn;
    step.device = device;
    step.runTool = options.runTool;
    step.timeoutSeconds = candidateSeconds;
    Clock::time_point batchStart = Clock::now();
    std::vector<StepResult> verified =
        verifyStepBatch(batch, referencePath, kernel.getSymName(), step);
    double each = secondsSince(batchStart) / double(indices.size());
    for (auto [k, i] : llvm::enumerate(indices)) {
      MeasuredCandidate &m = result.measured[i];
      m.measureSeconds = each;
      m.phaseSeconds.clear();
      if (const llvm::json::Object *phases =
              verified[k].report.getObject("phase_s"))
        for (const auto &[phase, seconds] : *phases)
          if (std::optional<double> value = seconds.getAsNumber())
            m.phaseSeconds.emplace_back(phase.str(), *value);
      m.reason = verified[k].reason;
      m.verdict = stringifyStepStatus(verified[k].status).str();
      m.correct = verified[k].status == StepStatus::Pass;
      if (m.correct && verified[k].candidateTiming) {
        m.timeMs = verified[k].candidateTiming->medianMs;
      } else if (m.correct) {
        m.correct = false;
        m.verdict = "could-not-run";
        m.reason = "the verifier reported no timing";
      }
    }
  };
  std::optional<int> firstDevice;
  if (!options.devices.empty())
    firstDevice = options.devices.front();
  const MeasuredCandidate &baseline = result.measured[0];
  if (baseline.compiled && baseline.verdict.empty()) {
    measureBatch({0}, firstDevice);
    if (baseline.verdict == "could-not-run") {
      progress("the reference did not run on the GPU (" + baseline.reason +
               "); trying the automatic choice");
      referenceOn = ReferenceOn::Auto;
      measureBatch({0}, firstDevice);
    }
  }
  if (!baseline.correct) {
    result.measured.resize(1);
    return finish("the default plan could not be measured (" +
                  baseline.verdict + ": " + baseline.reason + ")");
  }
  result.defaultMs = baseline.timeMs;
  candidateSeconds =
      std::clamp(unsigned(std::ceil(kCandidateTimeoutOverDefault *
                                    baseline.measureSeconds)),
                 kMinCandidateTimeoutSeconds, kCandidateTimeoutSeconds);
  progress(llvm::formatv("default plan: {0:F4} ms", *baseline.timeMs));

  std::mutex bestMutex;
  double bestMs = *baseline.timeMs;
  std::atomic<size_t> nextBatch{0};
  std::atomic<unsigned> measuredCount{1 + sameCode};
  size_t batches = llvm::divideCeil(pending.size(), kBatchSize);
  auto gpuWorker = [&](std::optional<int> device) {
    for (size_t b = nextBatch++; b < batches; b = nextBatch++) {
      ArrayRef<size_t> indices = ArrayRef<size_t>(pending).slice(
          b * kBatchSize,
          std::min(kBatchSize, pending.size() - b * kBatchSize));
      if (overBudget()) {
        for (size_t i : indices) {
          result.measured[i].verdict = "skipped";
          result.measured[i].reason = "over the time budget";
        }
        continue;
      }
      measureBatch(indices, device);
      std::lock_guard<std::mutex> lock(bestMutex);
      for (size_t i : indices) {
        MeasuredCandidate &m = result.measured[i];
        if (m.correct && *m.timeMs < bestMs)
          bestMs = *m.timeMs;
        progress(llvm::formatv(
            "candidate {0}/{1} [{2}]: {3}; best {4:F4} ms "
            "({5:F2}x over the default)",
            ++measuredCount, count, m.candidate.moves,
            m.correct ? llvm::formatv("{0:F4} ms", *m.timeMs).str() : m.verdict,
            bestMs, *baseline.timeMs / bestMs));
      }
    }
  };
  std::vector<std::thread> gpuWorkers;
  if (options.devices.size() <= 1) {
    gpuWorker(firstDevice);
  } else {
    for (int device : options.devices)
      gpuWorkers.emplace_back(gpuWorker, device);
    for (std::thread &worker : gpuWorkers)
      worker.join();
  }
  // The winner (never a twin: it has no module of its own), checked once
  // more with more trials before it is trusted.
  while (true) {
    int best = -1;
    for (auto [i, m] : llvm::enumerate(result.measured))
      if (twins[i] < 0 && m.correct &&
          (best < 0 || *m.timeMs < *result.measured[best].timeMs))
        best = int(i);
    if (best <= 0 || options.finalTrials <= options.trials) {
      result.best = best;
      break;
    }
    // Its lowered module is still in the scratch directory.
    StepOptions step;
    step.trials = options.finalTrials;
    // The independent oracle where it is affordable (the CPU up to 2^28
    // iterations): the GPU reference shares the candidates' lowering.
    step.referenceOn = ReferenceOn::Auto;
    step.runTool = options.runTool;
    step.device = firstDevice;
    StepResult verified =
        verifyStepFiles(dir.in("candidate" + llvm::Twine(best) + ".mlir"),
                        referencePath, kernel.getSymName(), step);
    if (verified.status == StepStatus::Pass) {
      result.best = best;
      break;
    }
    MeasuredCandidate &m = result.measured[best];
    if (verified.status == StepStatus::CouldNotRun) {
      // Nothing is known against it: keep it out of the database and out
      // of the choice. What stopped the check (the tool, the reference,
      // the GPU) would stop the next one too: the default plan stays.
      m.correct = false;
      m.verdict = "could-not-run";
      m.reason = "the final check could not run: " + verified.reason;
      progress("the final check of [" + m.candidate.moves +
               "] could not run (" + verified.reason +
               "); keeping the default plan");
      result.best = 0;
      break;
    }
    m.correct = false;
    m.verdict = "fail";
    m.reason = "failed the final check with " +
               std::to_string(options.finalTrials) +
               " trials: " + verified.reason;
    progress("the fastest candidate [" + m.candidate.moves +
             "] failed the final check; trying the next");
  }
  // Twins take their original's measurement and final verdict.
  for (auto [i, twin] : llvm::enumerate(twins)) {
    if (twin < 0)
      continue;
    MeasuredCandidate &m = result.measured[i];
    const MeasuredCandidate &same = result.measured[twin];
    m.verdict = same.verdict;
    m.correct = same.correct;
    m.timeMs = same.timeMs;
    m.reason = ("the same code as candidate " + llvm::Twine(twin) +
                (same.reason.empty() ? "" : ": " + same.reason))
                   .str();
  }
  result.skipped = llvm::count_if(
      result.measured, [](const auto &m) { return m.verdict == "skipped"; });
  for (MeasuredCandidate &m : result.measured) {
    if (m.verdict == "skipped")
      continue;
    std::optional<double> speedup;
    if (m.correct && m.timeMs)
      speedup = *result.defaultMs / *m.timeMs;
    m.reward = computeReward(m.compiled, m.correct, speedup);
  }
  return finish();
}
