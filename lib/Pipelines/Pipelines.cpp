//===- Pipelines.cpp - QiMeng's top-level pipelines -----------------------===//

#include "QiMeng/Pipelines/Pipelines.h"

#include "QiMeng/Dialect/QiMeng/Transforms/Passes.h"
#include "QiMeng/Transforms/GPU/Passes.h"
#include "QiMeng/Transforms/Linalg/Passes.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Target/CudaToolkit.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Fails the pipeline with a message: used when pipeline options are wrong,
/// so the error shows before any work is done.
class OptionErrorPass
    : public PassWrapper<OptionErrorPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OptionErrorPass)
  explicit OptionErrorPass(std::string message) : message(std::move(message)) {}
  StringRef getArgument() const override { return "qimeng-option-error"; }
  void runOnOperation() override {
    emitError(getOperation().getLoc()) << message;
    signalPassFailure();
  }

private:
  std::string message;
};

struct LLMPlanOptions : public PassPipelineOptions<LLMPlanOptions> {
  PassOptions::Option<std::string> target{
      *this, "target", llvm::cl::desc("Target GPU profile (sm_80, sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<bool> naive{
      *this, "naive",
      llvm::cl::desc("Plain plans only: one thread per output element (the "
                     "verifier's reference)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> wideReductions{
      *this, "wide-reductions",
      llvm::cl::desc("With naive: reductions accumulate in f64 "
                     "(qimeng-widen-accumulators, after preparation)"),
      llvm::cl::init(false)};
};

struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture (e.g. sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (e.g. +ptx80; default: PTX 8.0, or the "
                     "oldest version the chip needs when that is newer)"),
      llvm::cl::init("")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("LLVM optimization level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: isa (PTX, needs nothing), bin "
                     "(cubin) or fatbin (cubin + PTX); bin and fatbin run "
                     "ptxas from the CUDA toolkit (CUDA_HOME or PATH)"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> dumpPTX{
      *this, "dump-ptx",
      llvm::cl::desc("Directory to write each kernel module's PTX to")};
  PassOptions::Option<bool> fmad{
      *this, "fmad",
      llvm::cl::desc("Let the kernels' float multiplies and adds fuse into "
                     "FMAs, as nvcc --fmad=true (the default)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> launchManifest{
      *this, "launch-manifest",
      llvm::cl::desc("File to describe every kernel launch in (JSON)")};
};

/// Says on stderr who plans and who writes the code.
void announce(bool naive) {
  if (naive)
    return;
  qimeng::CompileSession &session = qimeng::CompileSession::get();
  qimeng::llm::Client *client = session.getClient();
  if (!client) {
    if (session.getLLMError().empty())
      session.progress("no LLM endpoint configured (QIMENG_LLM_BASE_URL, "
                       "OPENAI_*, ANTHROPIC_* unset): using the built-in "
                       "planner and micro-coder");
    return;
  }
  const qimeng::llm::Config &config = client->getConfig();
  session.progress(
      "planning with " + qimeng::llm::stringifyProvider(config.provider) +
      " model '" + config.plannerModel + "'" +
      (config.baseURL.empty() ? llvm::Twine() : " at " + config.baseURL) +
      " (cache " + qimeng::llm::stringifyCacheMode(config.cacheMode) +
      "); micro-coder: " +
      (session.useLLMMicroCoder()    ? "llm, verified step by step"
       : session.useLLMTritonCoder() ? "built-in; Triton modules by the llm, "
                                       "each verified"
                                     : "built-in"));
}

/// Kernels on tensors become kernels on memrefs (function boundaries too),
/// so the micro-coder always works on buffers; then the plans are realized:
/// by the LLM, each step verified (`llmMicroCoder`), or by MLIR's own
/// transformations. `settings` (the compile's command line; null for the
/// verifier's plain reference) gives the exports and the micro-coding
/// options.
void addRealizePlans(OpPassManager &pm, bool llmMicroCoder,
                     const qimeng::CompileOptions *settings = nullptr) {
  if (settings && !settings->exportIREESpec.empty()) {
    qimeng::QiMengExportIREESpecPassOptions spec;
    spec.output = settings->exportIREESpec;
    pm.addPass(qimeng::createQiMengExportIREESpecPass(spec));
  }
  if (settings && !settings->emitTriton.empty()) {
    qimeng::QiMengEmitTritonPassOptions triton;
    triton.outputDir = settings->emitTriton;
    pm.addPass(qimeng::createQiMengEmitTritonPass(triton));
  }
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  if (settings && !settings->exportTransform.empty()) {
    qimeng::QiMengExportTransformPassOptions files;
    files.output = settings->exportTransform;
    pm.addPass(qimeng::createQiMengExportTransformPass(files));
  }
  if (llmMicroCoder) {
    qimeng::QiMengMicroCodePassOptions microCode;
    if (settings) {
      microCode.rounds = settings->codeRounds;
      microCode.trials = settings->trials;
      microCode.requireGpuVerification = settings->requireGpuVerification;
      microCode.allowUnverified = settings->allowUnverified;
    }
    pm.addPass(qimeng::createQiMengMicroCodePass(microCode));
  } else
    pm.addPass(qimeng::createQiMengApplyPlanPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void buildLLMPlanPipeline(OpPassManager &pm, const LLMPlanOptions &options) {
  announce(options.naive);
  // Calls between the module's functions (StableHLO's and JAX's private
  // helpers) are inlined, and private functions nothing calls any more
  // dropped: the planner plans the linalg ops of each public function. No
  // cleanup pipeline runs on the functions (the inliner's default would
  // canonicalize every kernel before qimeng-prepare sees it).
  pm.addPass(createInlinerPass(/*opPipelines=*/{},
                               /*defaultPipelineBuilder=*/nullptr));
  pm.addPass(createSymbolDCEPass());
  // Which argument sizes the kernels tie together, for runners of the
  // lowered code.
  pm.addPass(qimeng::createQiMengRecordEqualDimsPass());
  // The verifier's naive reference computes matmuls as they are written.
  qimeng::QiMengPreparePassOptions prepareOptions;
  prepareOptions.padMatmuls = !options.naive;
  if (std::optional<qimeng::TargetProfile> profile =
          qimeng::lookupTargetProfile(options.target)) {
    prepareOptions.wgmma = !options.naive && profile->wgmma;
    prepareOptions.numSMs = profile->numSMs;
  }
  pm.addPass(qimeng::createQiMengPreparePass(prepareOptions));
  // After preparation: its fusions must not fold the widened results away.
  if (options.naive && options.wideReductions)
    pm.addPass(qimeng::createQiMengWidenAccumulatorsPass());
  // The compile's settings (command line) become the passes' options: a
  // pass decides from its options and the IR alone.
  qimeng::CompileSession &session = qimeng::CompileSession::get();
  const qimeng::CompileOptions &settings = session.getOptions();
  // The verifier's naive reference keeps every reduction whole, and the
  // two reductions of a softmax apart. So does a compile that writes Triton
  // kernels: the Triton emitter takes no online sum.
  if (!options.naive) {
    qimeng::QiMengSplitReductionsPassOptions splitOptions;
    splitOptions.target = options.target;
    pm.addPass(qimeng::createQiMengSplitReductionsPass(splitOptions));
    if (settings.emitTriton.empty() && !session.useLLMTritonCoder())
      pm.addPass(qimeng::createQiMengOnlineSoftmaxPass());
  }
  qimeng::QiMengPlanPassOptions planOptions;
  planOptions.target = options.target;
  planOptions.naive = options.naive;
  planOptions.tf32 = settings.allowTf32;
  pm.addPass(qimeng::createQiMengPlanPass(planOptions));
  // The verifier's naive reference is never tuned and never asks an LLM.
  if (!options.naive) {
    qimeng::QiMengTunePassOptions tuneOptions;
    tuneOptions.target = options.target;
    tuneOptions.tuningDB = settings.tuningDB;
    tuneOptions.searchCandidates = settings.searchCandidates;
    tuneOptions.searchBudgetSeconds = settings.searchBudgetSeconds;
    tuneOptions.searchSeed = settings.searchSeed;
    tuneOptions.searchLLMSamples = settings.searchLLMSamples;
    tuneOptions.trials = settings.trials;
    tuneOptions.planRounds = settings.planRounds;
    tuneOptions.tf32 = settings.allowTf32;
    pm.addPass(qimeng::createQiMengTunePass(tuneOptions));
    qimeng::QiMengLLMPlanPassOptions llmPlanOptions;
    llmPlanOptions.target = options.target;
    llmPlanOptions.rounds = settings.planRounds;
    llmPlanOptions.tuningDB = settings.tuningDB;
    llmPlanOptions.tf32 = settings.allowTf32;
    pm.addPass(qimeng::createQiMengLLMPlanPass(llmPlanOptions));
  }
  addRealizePlans(pm, !options.naive && session.useLLMMicroCoder(),
                  options.naive ? nullptr : &settings);
}

/// Upstream's GPU-to-NVVM pipeline, with the LLVM functions of the kernels
/// given their noalias arguments (qimeng-noalias-kernel-args, second run)
/// before they are serialized. The upstream pipeline is one unit, so its
/// textual form is split where the kernels have become LLVM functions (after
/// the last gpu.module pass).
void addLowerToNVVM(OpPassManager &pm,
                    const gpu::GPUToNVVMPipelineOptions &options, bool fmad) {
  OpPassManager upstream(pm.getOpAnchorName());
  gpu::buildLowerToNVVMPassPipeline(upstream, options);
  std::string text;
  llvm::raw_string_ostream os(text);
  upstream.printAsTextualPipeline(os);
  StringRef body = text;
  std::string anchor = (pm.getOpAnchorName() + "(").str();
  if (body.consume_front(anchor))
    body.consume_back(")");
  StringRef kernelsLowered = "gpu.module(reconcile-unrealized-casts)";
  size_t at = body.rfind(kernelsLowered);
  std::string pipeline = body.str();
  if (at == StringRef::npos) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "--lower-to-nvvm: the upstream GPU-to-NVVM pipeline has no '" +
        kernelsLowered.str() + "' step to add noalias arguments after"));
    return;
  }
  pipeline.insert(at + kernelsLowered.size(), ",qimeng-noalias-kernel-args");
  // Tensor-core fragments' n-D broadcasts lowered after the last
  // canonicalization before the kernels' conversion (which cannot lower
  // them); multiplies and adds marked to fuse into FMAs (nvcc's default).
  StringRef kernelsConverted = "gpu.module(convert-gpu-to-nvvm";
  size_t convert = pipeline.find(kernelsConverted.str());
  if (convert == std::string::npos) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "--lower-to-nvvm: the upstream GPU-to-NVVM pipeline has no '" +
        kernelsConverted.str() + "' step to lower fragments before"));
    return;
  }
  pipeline.insert(convert, fmad ? "gpu.module(qimeng-lower-fragment-vectors,"
                                  "qimeng-contract-float-ops),"
                                : "gpu.module(qimeng-lower-fragment-vectors),");
  // Targets are attached by QiMeng's pass (sm_90a for the kernels that
  // need it), with the options upstream's step was given.
  size_t attach = pipeline.find("nvvm-attach-target{");
  size_t attachEnd = attach == std::string::npos
                         ? std::string::npos
                         : pipeline.find('}', attach);
  if (attachEnd == std::string::npos) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "--lower-to-nvvm: the upstream GPU-to-NVVM pipeline has no "
        "'nvvm-attach-target{...}' step to replace"));
    return;
  }
  pipeline.replace(attach, attachEnd + 1 - attach,
                   llvm::formatv("qimeng-attach-nvvm-targets{{O={0} "
                                 "triple={1} chip={2} features={3}}",
                                 options.optLevel, options.cubinTriple,
                                 options.cubinChip, options.cubinFeatures)
                       .str());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    pm.addPass(std::make_unique<OptionErrorPass>(
        "--lower-to-nvvm: the upstream GPU-to-NVVM pipeline did not parse"));
}

/// The PTX features to emit `chip` with: `given` when it names a PTX
/// version the chip takes, else PTX 8.0 or the chip's oldest (newer) one;
/// an error for a chip LLVM 22 does not know or a version too old for it.
FailureOr<std::string> getPTXFeatures(StringRef chip, StringRef given,
                                      std::string &error) {
  std::optional<unsigned> minimum = qimeng::getMinimumPTXVersion(chip);
  if (!minimum) {
    error = "--lower-to-nvvm: unknown chip '" + chip.str() +
            "'; LLVM 22 emits for sm_20 to sm_121 (e.g. sm_80, sm_90, "
            "sm_90a, sm_100, sm_120, with 'a' and 'f' variants)";
    return failure();
  }
  if (given.empty())
    return "+ptx" + std::to_string(std::max(80u, *minimum));
  for (StringRef feature : llvm::split(given, ',')) {
    unsigned version = 0;
    StringRef trimmed = feature.trim();
    if (trimmed.consume_front("+ptx") && !trimmed.getAsInteger(10, version) &&
        version < *minimum) {
      error = llvm::formatv("--lower-to-nvvm: chip {0} needs PTX {1}.{2} or "
                            "later; features={3} asks for {4}.{5} (leave "
                            "features out to pick it)",
                            chip, *minimum / 10, *minimum % 10, given,
                            version / 10, version % 10)
                  .str();
      return failure();
    }
  }
  return given.str();
}

void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options) {
  std::string error;
  FailureOr<std::string> features =
      getPTXFeatures(options.chip, options.features, error);
  if (failed(features)) {
    pm.addPass(std::make_unique<OptionErrorPass>(error));
    return;
  }
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin") {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "--lower-to-nvvm: unknown format '" + format.str() +
        "'; expected isa, bin or fatbin"));
    return;
  }
  // What a runner needs to call the functions after lowering.
  pm.addPass(qimeng::createQiMengRecordSignaturesPass());
  // Temporaries the kernels use: managed memory instead of host malloc.
  pm.addPass(qimeng::createQiMengDeviceAllocsPass());
  // x ** 2 as a multiply; other integer powers with the i32 exponent
  // libdevice takes.
  pm.addPass(qimeng::createQiMengIntegerPowersPass());
  // Reshapes into several dynamic sizes, which upstream's
  // expand-strided-metadata crashes on, as explicit views.
  pm.addPass(qimeng::createQiMengReinterpretDynamicExpandsPass());
  // Constants and index math used inside the launch move into it, so the
  // outliner does not turn them into kernel arguments.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Outlining copies shared-memory globals into the gpu.module; drop the
  // host copies.
  pm.addPass(createSymbolDCEPass());
  // The kernels' names become PTX names: a clear error, not an abort in the
  // NVPTX backend, for those that cannot.
  pm.addPass(qimeng::createQiMengCheckKernelNamesPass());
  // TMA descriptors cross into the kernels as pointers.
  pm.addPass(qimeng::createQiMengTensorMapArgsPass());
  pm.addPass(qimeng::createQiMengNoAliasKernelArgsPass());
  // Launches, allocations and frees are queued on one stream, which the
  // host waits for once, at the end of the function (not after each
  // kernel).
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // Managed memory (buffers the host code also touches) is allocated
  // synchronously.
  pm.addNestedPass<func::FuncOp>(qimeng::createQiMengSyncManagedAllocsPass());
  if (!options.launchManifest.empty()) {
    qimeng::QiMengExportLaunchesPassOptions launches;
    launches.output = options.launchManifest;
    pm.addPass(qimeng::createQiMengExportLaunchesPass(launches));
  }
  // bf16 tensor-core instructions, which upstream's nvgpu lowering does
  // not take.
  pm.addPass(qimeng::createQiMengLowerBf16MmaSyncPass());
  // Upstream links libdevice only from a toolkit named in the environment.
  qimeng::useFoundCudaToolkit();
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = *features;
  nvvm.cubinFormat = options.format;
  nvvm.optLevel = options.optLevel;
  addLowerToNVVM(pm, nvvm, options.fmad);
  // No PTX with libdevice calls left unresolved (no toolkit found).
  pm.addPass(qimeng::createQiMengCheckBinariesPass());
  // The same input gives the same output, byte for byte.
  pm.addPass(qimeng::createQiMengStripBuildTimesPass());
  if (!options.dumpPTX.empty()) {
    qimeng::QiMengDumpPTXPassOptions dump;
    dump.dir = options.dumpPTX;
    pm.addPass(qimeng::createQiMengDumpPTXPass(dump));
  }
}
} // namespace

void mlir::qimeng::registerPipelines() {
  PassPipelineRegistration<LLMPlanOptions>(
      "llm-plan",
      "Plan every kernel (LLM planner when an endpoint is configured, the "
      "built-in planner otherwise) and realize the plan",
      buildLLMPlanPipeline);
  PassPipelineRegistration<>(
      "qimeng-realize-plans",
      "Bufferize and realize the plans the module holds with the built-in "
      "micro-coder (what a plan search compiles each candidate with)",
      [](OpPassManager &pm) { addRealizePlans(pm, /*llmMicroCoder=*/false); });
  PassPipelineRegistration<LowerToNVVMOptions>(
      "lower-to-nvvm",
      "Map to gpu.launch, outline kernels, lower to NVVM and serialize PTX",
      buildLowerToNVVMPipeline);
}
