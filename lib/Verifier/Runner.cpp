//===- Runner.cpp - Compile, JIT and run a kernel function on the GPU -----===//

#include "QiMeng/Verifier/Runner.h"

#include "QiMeng/Verifier/PhaseTimes.h"

#include "QiMeng/Dialect/QiMeng/IR/EqualDims.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"

#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Runtime/MgpuRuntime.h"
#include "QiMeng/Support/Blocks.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

using namespace mlir;
using namespace mlir::qimeng;

Runner::~Runner() = default;

/// SplitMix64's output function: a well-mixed 64-bit value of `x`.
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void mlir::qimeng::fillRandom(Type element, int64_t count, uint64_t seed,
                              void *data, int scaleLog2) {
  // Element i is a function of (seed, i) alone: no generator state to step
  // through, so a large buffer fills at memory speed.
  int64_t bytes = getElementBytes(element);
  uint64_t key = mix(seed);
  char *out = static_cast<char *>(data);
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType) {
    // Small non-negative integers (valid as indices into any dimension of
    // 16 or more), 0/1 for i1.
    uint64_t mask = element.isInteger(1) ? 1 : 15;
    forEachBlock(count, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        int64_t value = mix(key + uint64_t(i)) >> 60 & mask;
        std::memcpy(out + i * bytes, &value, bytes); // little-endian
      }
    });
    return;
  }
  // Uniform in [-1, 1): 24 random bits, exact in every float type's range.
  auto draw = [&](int64_t i) {
    return float(int64_t(mix(key + uint64_t(i)) >> 40) - (1 << 23)) *
           (1.0f / (1 << 23));
  };
  auto fillWith = [&](auto *values) {
    forEachBlock(count, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        values[i] = std::ldexp(draw(i), scaleLog2);
    });
  };
  if (element.isF32())
    return fillWith(static_cast<float *>(data));
  if (element.isF64())
    return fillWith(static_cast<double *>(data));
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  forEachBlock(count, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      // Round to the narrow type (f16, bf16) as IEEE conversion does.
      llvm::APFloat narrow(draw(i));
      bool lossy = false;
      narrow.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lossy);
      uint64_t bits = narrow.bitcastToAPInt().getZExtValue();
      std::memcpy(out + i * bytes, &bits, bytes);
    }
  });
}

/// The bits of one poison element of `element` type: a quiet NaN, or 0x7f
/// (pattern 0) or 0x80 (pattern 1) in every byte of an integer.
static uint64_t getPoisonBits(Type element, unsigned pattern) {
  if (auto floatType = dyn_cast<FloatType>(element))
    return llvm::APFloat::getQNaN(floatType.getFloatSemantics())
        .bitcastToAPInt()
        .getZExtValue();
  return pattern % 2 ? 0x8080808080808080ull : 0x7f7f7f7f7f7f7f7full;
}

int mlir::qimeng::getAllocationPoisonByte(unsigned pattern) {
  return pattern % 2 ? 0x7F : 0xFF;
}

void mlir::qimeng::fillPoison(Type element, int64_t count, void *data,
                              unsigned pattern) {
  int64_t bytes = getElementBytes(element);
  uint64_t bits = getPoisonBits(element, pattern);
  char *out = static_cast<char *>(data);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(out + i * bytes, &bits, bytes); // little-endian
}

/// Checks that `type` is a memref the runner can build.
static llvm::Error checkMemRef(Type type, llvm::StringRef what) {
  auto memref = dyn_cast<MemRefType>(type);
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  if (!memref || !memref.getLayout().isIdentity() || memref.getMemorySpace())
    return llvm::createStringError(what + " has type " + name +
                                   "; the runner takes memrefs (tensors "
                                   "before bufferization) with the default "
                                   "layout");
  Type element = memref.getElementType();
  if (!(element.isF32() || element.isF16() || element.isBF16() ||
        element.isF64() || element.isInteger(1) || element.isInteger(8) ||
        element.isInteger(16) || element.isInteger(32) ||
        element.isInteger(64) || element.isIndex()))
    return llvm::createStringError(what + " has element type of " + name +
                                   " that the runner does not generate");
  return llvm::Error::success();
}

/// The CPU lowering of an unplanned program: loops over host memrefs.
static constexpr llvm::StringLiteral kCpuPrepare =
    "qimeng-strip-plans,qimeng-prepare{pad-matmuls=false},";
static constexpr llvm::StringLiteral kCpuPipeline =
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map},canonicalize,"
    // Integer powers computed as on the GPU (qimeng-integer-powers).
    "qimeng-record-signatures,qimeng-integer-powers,"
    // Reshapes into several dynamic sizes as views (as on the GPU).
    "qimeng-reinterpret-dynamic-expands,convert-linalg-to-loops,"
    // Arithmetic on bf16 and f16 in f32, rounded after each operation (the
    // GPU's result), and bf16 conversions as integer code: the host's libgcc
    // need not have the soft-float bf16 routines.
    "math-extend-to-supported-types{target-type=f32},"
    "arith-emulate-unsupported-floats{source-types=bf16,f16 target-type=f32},"
    "arith-expand{include-bf16=true},lower-affine,"
    // expand-strided-metadata computes the sizes of reshaped dynamic
    // dimensions with affine.apply: lowered once more after it.
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
    "reconcile-unrealized-casts";

llvm::Expected<std::unique_ptr<Runner>>
Runner::create(ModuleOp module, llvm::StringRef entry, RunnerMode mode,
               llvm::StringRef phasePrefix, bool wideReductions) {
  bool reference = mode != RunnerMode::Planned;
  PhaseTimer timer((phasePrefix + phase::kCompile).str());
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> copy = module.clone();
  ErrorCollector errors(ctx);
  auto runPipeline = [&](llvm::StringRef pipeline) -> llvm::Error {
    PassManager pm(ctx, ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Implicit);
    if (failed(parsePassPipeline(pipeline, pm)))
      return llvm::createStringError("internal error: bad pipeline " +
                                     pipeline);
    if (failed(pm.run(*copy)))
      return llvm::createStringError("compiling failed: " + errors.join("\n"));
    return llvm::Error::success();
  };
  // A module not lowered yet is planned, bufferized, realized and lowered;
  // the lowering records the entry's memref signature on its llvm.func.
  SmallVector<std::pair<ArgDim, ArgDim>> equalDims;
  if (!copy->lookupSymbol<LLVM::LLVMFuncOp>(entry)) {
    auto func = copy->lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      return llvm::createStringError("no function @" + entry +
                                     " with a body in the module");
    // Read off the kernels before the pipelines turn them into loops.
    equalDims = findEqualArgDims(func);
    // A reference's reductions accumulate in f64 when asked: serial f32
    // sums of millions of terms are the inaccurate side otherwise.
    bool widen = reference && wideReductions;
    if (mode == RunnerMode::Cpu) {
      // Widened right after preparation (whose fusions would fold the
      // widened results away).
      std::string pipeline = kCpuPrepare.str();
      if (widen)
        pipeline += "qimeng-widen-accumulators,";
      if (llvm::Error err = runPipeline(pipeline + kCpuPipeline.str()))
        return std::move(err);
    } else {
      // The reference ignores the plans in the input: only its semantics
      // count.
      if (llvm::Error err =
              runPipeline(!reference ? "llm-plan"
                          : widen ? "qimeng-strip-plans,llm-plan{naive=true "
                                    "wide-reductions=true}"
                                  : "qimeng-strip-plans,llm-plan{naive=true}"))
        return std::move(err);
      if (llvm::Error err = runPipeline("lower-to-nvvm"))
        return std::move(err);
    }
  } else if (reference) {
    return llvm::createStringError(
        "the reference is lowered already: give the original program");
  }
  auto func = copy->lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!func || func.isExternal())
    return llvm::createStringError("no function @" + entry +
                                   " with a body in the module");
  auto signature = func->getAttrOfType<TypeAttr>("qimeng.signature");
  auto written = func->getAttrOfType<DenseBoolArrayAttr>("qimeng.written_args");
  auto functionType =
      signature ? dyn_cast<FunctionType>(signature.getValue()) : nullptr;
  if (!functionType || !written ||
      written.size() != static_cast<int64_t>(functionType.getNumInputs()))
    return llvm::createStringError(
        "@" + entry +
        " is lowered to LLVM without its memref signature "
        "(qimeng.signature, qimeng.written_args): lower it with qimeng-opt "
        "--lower-to-nvvm");
  if (equalDims.empty())
    equalDims = getRecordedEqualDims(func);
  std::unique_ptr<Runner> runner(new Runner());
  runner->entry = entry.str();
  runner->equalDims = std::move(equalDims);
  runner->onCpu = mode == RunnerMode::Cpu;
  runner->tf32 = copy.get()->hasAttr(QiMengDialect::kTf32AttrName);
  runner->phasePrefix = phasePrefix.str();
  for (auto [i, type] : llvm::enumerate(functionType.getInputs())) {
    if (llvm::Error err = checkMemRef(
            type, llvm::formatv("argument {0} of @{1}", i, entry).str()))
      return std::move(err);
    runner->argTypes.push_back(cast<MemRefType>(type));
  }
  for (auto [i, type] : llvm::enumerate(functionType.getResults())) {
    if (llvm::Error err = checkMemRef(
            type, llvm::formatv("result {0} of @{1}", i, entry).str()))
      return std::move(err);
    runner->resultTypes.push_back(cast<MemRefType>(type));
  }
  runner->writtenArgs.assign(written.asArrayRef().begin(),
                             written.asArrayRef().end());

  // The GPU first: loading the kernels runs at JIT initialization.
  if (!runner->onCpu)
    if (llvm::Expected<cuda::Driver &> driver = cuda::Driver::get(); !driver)
      return driver.takeError();
  ExecutionEngineOptions options;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(*copy, options);
  if (!engine)
    return llvm::createStringError("JIT compilation of the host code failed: " +
                                   llvm::toString(engine.takeError()));
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const runtime::Symbol &symbol : runtime::getMgpuSymbols())
      symbols[interner(symbol.name)] = {
          llvm::orc::ExecutorAddr::fromPtr(symbol.address),
          llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  (*engine)->initialize();
  if (std::optional<std::string> error = runtime::takeError())
    return llvm::createStringError("loading the kernels failed: " + *error);
  runner->engine = std::move(*engine);
  return runner;
}

namespace {

/// Frees `ptr`: CUDA memory with a `driver`, host memory without one.
void freeBuffer(const cuda::Driver *driver, void *ptr) {
  if (!ptr)
    return;
  if (driver)
    (void)driver->api().cuMemFree(reinterpret_cast<cuda::CUdeviceptr>(ptr));
  else
    std::free(ptr);
}

/// Copies `bytes` from `src` to `dst` and waits: with a `driver`, one of
/// them an argument buffer in managed memory, by a DMA copy (the host never
/// touches managed pages itself: that moves them one fault at a time,
/// seconds for the hundreds of MB of a large kernel); a plain memcpy
/// without one.
llvm::Error copyBytes(const cuda::Driver *driver, void *dst, const void *src,
                      int64_t bytes) {
  if (bytes <= 0)
    return llvm::Error::success();
  if (!driver) {
    std::memcpy(dst, src, bytes);
    return llvm::Error::success();
  }
  const cuda::DriverApi &api = driver->api();
  cuda::CUresult result = api.cuMemcpyAsync(
      reinterpret_cast<cuda::CUdeviceptr>(dst),
      reinterpret_cast<cuda::CUdeviceptr>(src), bytes, nullptr);
  if (result == cuda::kSuccess)
    result = api.cuStreamSynchronize(nullptr);
  return driver->check(result, "copying an argument (cuMemcpyAsync)");
}

/// Whether the `bytes` bytes at `data` (an argument buffer) equal
/// `expected`'s first ones, read back in pieces through a small buffer (an
/// input of hundreds of MB needs no copy of its own); a plain memcmp
/// without a `driver`.
llvm::Expected<bool> equalsInPlace(const cuda::Driver *driver, const void *data,
                                   const std::vector<char> &expected,
                                   int64_t bytes) {
  if (bytes > int64_t(expected.size()))
    return false;
  if (!driver)
    return std::memcmp(data, expected.data(), bytes) == 0;
  constexpr int64_t kPiece = int64_t(16) << 20;
  std::vector<char> piece(std::min(bytes, kPiece));
  for (int64_t at = 0; at < bytes; at += kPiece) {
    int64_t size = std::min(kPiece, bytes - at);
    if (llvm::Error err = copyBytes(driver, piece.data(),
                                    static_cast<const char *>(data) + at, size))
      return std::move(err);
    if (std::memcmp(piece.data(), expected.data() + at, size) != 0)
      return false;
  }
  return true;
}

/// Gives fresh managed memory its pages on the GPU, where the kernels use
/// it, before anything is copied in. Only a hint: a driver that cannot
/// prefetch places the pages on first use.
void placeOnDevice(const cuda::Driver &driver, void *ptr, int64_t bytes) {
  const cuda::DriverApi &api = driver.api();
  if (!api.cuMemPrefetchAsync)
    return;
  cuda::CUmemLocation device{cuda::kMemLocationDevice, driver.device()};
  (void)api.cuMemPrefetchAsync(reinterpret_cast<cuda::CUdeviceptr>(ptr), bytes,
                               device, 0, nullptr);
}

/// An argument buffer: CUDA managed memory, or host memory (no driver),
/// freed on destruction.
struct ArgBuffer {
  const cuda::Driver *driver = nullptr;
  void *ptr = nullptr;
  ~ArgBuffer() { freeBuffer(driver, ptr); }
};

/// The packed-argument form of a memref descriptor: allocated and aligned
/// pointers, offset, sizes, strides (row-major).
struct Descriptor {
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;
};

/// The arguments of calls of the entry in managed memory, and the pointers
/// ExecutionEngine::invokePacked takes (into this object: it does not move).
struct Invocation {
  Invocation() = default;
  Invocation(const Invocation &) = delete;
  std::vector<std::unique_ptr<ArgBuffer>> buffers;
  SmallVector<Descriptor> descriptors;
  /// Contents of the arguments the function must not write.
  SmallVector<std::pair<unsigned, std::shared_ptr<const std::vector<char>>>>
      snapshots;
  /// The returned descriptors, one word per scalar.
  std::vector<int64_t> resultStorage;
  SmallVector<void *> packed;
};

/// `type` as the IR prints it.
std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The shapes of the arguments of `types`: static sizes, the caller's
/// buffers', the given dynamic sizes, and the sizes the function's IR ties
/// to those (`equalities`: an output argument's batch is its input's).
llvm::Expected<SmallVector<SmallVector<int64_t>>>
getArgShapes(ArrayRef<MemRefType> types, const RunOptions &options,
             ArrayRef<std::pair<ArgDim, ArgDim>> equalities) {
  SmallVector<SmallVector<std::optional<int64_t>>> known;
  for (auto [index, type] : llvm::enumerate(types)) {
    SmallVector<std::optional<int64_t>> &shape = known.emplace_back();
    auto given = options.inputs.find(index);
    if (given != options.inputs.end()) {
      ArrayRef<int64_t> dims = given->second.shape;
      bool fits = dims.size() == static_cast<size_t>(type.getRank());
      for (auto [want, have] : llvm::zip(type.getShape(), dims))
        fits &= ShapedType::isDynamic(want) || want == have;
      // Its bytes are copied in and compared afterwards as they are: they
      // must be exactly the shape's.
      fits &= int64_t(given->second.bytes.size()) ==
              ShapedType::getNumElements(dims) *
                  getElementBytes(given->second.element);
      if (!fits || given->second.element != type.getElementType()) {
        std::string text;
        llvm::raw_string_ostream dimsOs(text);
        for (int64_t d : dims)
          dimsOs << d << "x";
        given->second.element.print(dimsOs);
        return llvm::createStringError(llvm::formatv(
            "the data given for argument {0} is {1}, the argument is {2}",
            index, text, printType(type)));
      }
      shape.assign(dims.begin(), dims.end());
      continue;
    }
    auto sizes = options.dynamicSizes.find(index);
    if (sizes == options.dynamicSizes.end()) {
      for (int64_t d : type.getShape())
        shape.push_back(ShapedType::isDynamic(d) ? std::nullopt
                                                 : std::optional<int64_t>(d));
      continue;
    }
    // The dynamic sizes in order, or the whole shape.
    ArrayRef<int64_t> sized = sizes->second;
    int64_t dynamicDims = type.getNumDynamicDims();
    int64_t rank = type.getRank();
    bool whole =
        static_cast<int64_t>(sized.size()) == rank && dynamicDims != rank;
    if (!whole && static_cast<int64_t>(sized.size()) != dynamicDims)
      return llvm::createStringError(llvm::formatv(
          "--shape {0} gives {1} size(s); argument {0} ({2}) has {3} dynamic "
          "dimension(s): give those, or all {4} sizes",
          index, sized.size(), printType(type), dynamicDims, rank));
    unsigned next = 0;
    for (auto [d, size] : llvm::enumerate(type.getShape())) {
      if (whole && !ShapedType::isDynamic(size) && sized[d] != size)
        return llvm::createStringError(llvm::formatv(
            "--shape {0} gives {1} for dimension {2} of argument {0} ({3})",
            index, sized[d], d, printType(type)));
      if (whole)
        shape.push_back(sized[d]);
      else
        shape.push_back(ShapedType::isDynamic(size) ? sized[next++] : size);
    }
  }
  for (const auto &[index, sizes] : options.dynamicSizes)
    if (index >= types.size())
      return llvm::createStringError(
          llvm::formatv("--shape {0}: the function has {1} argument(s)", index,
                        types.size()));
  inferSizes(equalities, known);
  SmallVector<SmallVector<int64_t>> shapes;
  for (auto [index, shape] : llvm::enumerate(known)) {
    SmallVector<int64_t> &out = shapes.emplace_back();
    for (std::optional<int64_t> d : shape) {
      if (!d)
        return llvm::createStringError(llvm::formatv(
            "argument {0} has a dynamic size that no given argument "
            "determines: give it with --shape {0}=AxB... or its data with "
            "--input",
            index));
      out.push_back(*d);
    }
  }
  return shapes;
}

/// Seeded data of `count` elements (`bytes` bytes) of `element` type from
/// fill seed `seed` (see fillRandom): generated once per process and kept
/// (up to kSeededDataCacheBytes in all), since every candidate a batch
/// checks gets the same inputs for a trial's seed.
std::shared_ptr<const std::vector<char>>
getSeededData(Type element, int64_t count, int64_t bytes, uint64_t seed,
              int scaleLog2) {
  constexpr int64_t kSeededDataCacheBytes = int64_t(4) << 30;
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int64_t, uint64_t, int>,
                  std::shared_ptr<const std::vector<char>>>
      cache;
  static int64_t cachedBytes = 0;
  std::string typeName;
  llvm::raw_string_ostream(typeName) << element;
  auto key = std::make_tuple(typeName, count, seed, scaleLog2);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = cache.find(key); found != cache.end())
    return found->second;
  auto data = std::make_shared<std::vector<char>>(bytes);
  fillRandom(element, count, seed, data->data(), scaleLog2);
  if (cachedBytes + bytes <= kSeededDataCacheBytes) {
    cachedBytes += bytes;
    cache.emplace(key, data);
  }
  return data;
}

/// Fills `count` elements at `ptr` (on the GPU) with fillPoison's value by
/// a driver memset, without host data; false for element sizes the 16- and
/// 32-bit memsets do not write (8 and 64 bits): the caller fills those on
/// the host instead.
bool poisonOnDevice(const cuda::Driver &driver, Type element, int64_t count,
                    void *ptr, unsigned pattern) {
  int64_t width = getElementBytes(element);
  if (width != 2 && width != 4)
    return false;
  uint64_t bits = getPoisonBits(element, pattern);
  const cuda::DriverApi &api = driver.api();
  auto device = reinterpret_cast<cuda::CUdeviceptr>(ptr);
  cuda::CUresult result =
      width == 4 ? api.cuMemsetD32Async(device, uint32_t(bits), count, nullptr)
                 : api.cuMemsetD16Async(device, uint16_t(bits), count, nullptr);
  if (result == cuda::kSuccess)
    result = api.cuStreamSynchronize(nullptr);
  return result == cuda::kSuccess;
}

/// Allocates and fills the arguments (see Runner::run) and packs them: in
/// managed memory, or in host memory without a `driver`.
llvm::Error prepare(const cuda::Driver *driver, ArrayRef<MemRefType> argTypes,
                    ArrayRef<MemRefType> resultTypes, ArrayRef<bool> outputs,
                    ArrayRef<std::pair<ArgDim, ArgDim>> equalities,
                    const RunOptions &options, llvm::StringRef phasePrefix,
                    Invocation &call) {
  llvm::Expected<SmallVector<SmallVector<int64_t>>> shapes =
      getArgShapes(argTypes, options, equalities);
  if (!shapes)
    return shapes.takeError();
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    SmallVector<int64_t> *shape = &(*shapes)[i];
    int64_t count = ShapedType::getNumElements(*shape);
    int64_t bytes =
        std::max<int64_t>(1, count) * getElementBytes(type.getElementType());
    auto buffer = std::make_unique<ArgBuffer>();
    buffer->driver = driver;
    if (driver) {
      cuda::CUdeviceptr ptr = 0;
      if (llvm::Error err =
              driver->check(driver->api().cuMemAllocManaged(
                                &ptr, bytes, cuda::kMemAttachGlobal),
                            "cuMemAllocManaged"))
        return err;
      buffer->ptr = reinterpret_cast<void *>(ptr);
    } else {
      buffer->ptr = std::aligned_alloc(64, llvm::alignTo(bytes, 64));
      if (!buffer->ptr)
        return llvm::createStringError("out of host memory");
    }
    // The contents: the caller's, poison, or seeded data (generated once
    // per process for every runner that asks: the same for each candidate
    // a batch checks), copied in (see copyBytes).
    std::shared_ptr<const std::vector<char>> contents;
    Type element = type.getElementType();
    {
      PhaseTimer timer(phasePrefix.str() + phase::kFill.str());
      if (auto given = options.inputs.find(i); given != options.inputs.end()) {
        // The caller's buffer itself (it outlives the call), not a copy.
        contents = std::shared_ptr<const std::vector<char>>(
            std::shared_ptr<void>(), &given->second.bytes);
      } else if (options.poisonOutputs && outputs[i]) {
        if (!driver || !poisonOnDevice(*driver, element, count, buffer->ptr,
                                       options.poisonPattern)) {
          auto poison = std::make_shared<std::vector<char>>(bytes);
          fillPoison(element, count, poison->data(), options.poisonPattern);
          contents = std::move(poison);
        }
      } else {
        contents =
            getSeededData(element, count, bytes, options.seed * 1000003u + i,
                          options.inputScaleLog2);
      }
    }
    if (contents) {
      PhaseTimer timer(phasePrefix.str() + phase::kCopyIn.str());
      if (driver)
        placeOnDevice(*driver, buffer->ptr, bytes);
      if (llvm::Error err =
              copyBytes(driver, buffer->ptr, contents->data(),
                        std::min<int64_t>(bytes, contents->size())))
        return err;
    }
    if (!outputs[i])
      call.snapshots.emplace_back(i, std::move(contents));
    Descriptor desc;
    desc.allocated = desc.aligned = buffer->ptr;
    desc.sizes = *shape;
    desc.strides.assign(shape->size(), 1);
    for (int64_t d = static_cast<int64_t>(shape->size()) - 2; d >= 0; --d)
      desc.strides[d] = desc.strides[d + 1] * (*shape)[d + 1];
    call.descriptors.push_back(std::move(desc));
    call.buffers.push_back(std::move(buffer));
  }
  // One pointer per scalar of each expanded descriptor, then the results.
  for (Descriptor &desc : call.descriptors) {
    call.packed.push_back(&desc.allocated);
    call.packed.push_back(&desc.aligned);
    call.packed.push_back(&desc.offset);
    for (int64_t &s : desc.sizes)
      call.packed.push_back(&s);
    for (int64_t &s : desc.strides)
      call.packed.push_back(&s);
  }
  size_t resultWords = 0;
  for (MemRefType type : resultTypes)
    resultWords += 3 + 2 * type.getRank();
  call.resultStorage.assign(std::max<size_t>(resultWords, 1), 0);
  if (!resultTypes.empty())
    call.packed.push_back(call.resultStorage.data());
  return llvm::Error::success();
}

/// Frees the memrefs the last call returned (allocated by the function:
/// device memory, or host memory from the host code's malloc) unless they
/// are arguments.
void releaseResults(const cuda::Driver *driver,
                    ArrayRef<MemRefType> resultTypes, Invocation &call) {
  llvm::SmallPtrSet<void *, 4> freed;
  for (const Descriptor &desc : call.descriptors)
    freed.insert(desc.allocated);
  size_t word = 0;
  for (MemRefType type : resultTypes) {
    auto *allocated = reinterpret_cast<void *>(call.resultStorage[word]);
    word += 3 + 2 * type.getRank();
    if (!allocated || !freed.insert(allocated).second)
      continue;
    runtime::freeReturnedBuffer(allocated);
    if (driver)
      (void)runtime::takeError();
  }
}

/// The first error of the last call: the host code's CUDA calls or `result`.
llvm::Error checkCall(const cuda::Driver &driver, cuda::CUresult result,
                      llvm::StringRef what) {
  if (std::optional<std::string> error = runtime::takeError())
    return llvm::createStringError("the run failed: " + *error);
  return driver.check(result, what);
}

} // namespace

Timing mlir::qimeng::summarizeSamples(llvm::ArrayRef<double> samples) {
  Timing timing;
  timing.runs = samples.size();
  if (samples.empty())
    return timing;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  timing.minMs = sorted.front();
  timing.maxMs = sorted.back();
  timing.medianMs =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double sum = 0;
  for (double s : sorted)
    sum += s;
  timing.meanMs = sum / n;
  double squares = 0;
  for (double s : sorted)
    squares += (s - timing.meanMs) * (s - timing.meanMs);
  timing.stddevMs = std::sqrt(squares / n);
  return timing;
}

/// The driver with its context current, or null for a CPU runner.
static llvm::Expected<const cuda::Driver *> getDriver(bool onCpu) {
  if (onCpu)
    return nullptr;
  llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
  if (!driver)
    return driver.takeError();
  return &*driver;
}

/// Copies back what a finished call left (see Runner::run): the outputs
/// (every argument with `copyInputsOut`), whether the other arguments
/// changed, and the results (not freed here).
static llvm::Expected<RunResult>
collectResult(const cuda::Driver *driver, ArrayRef<MemRefType> argTypes,
              ArrayRef<MemRefType> resultTypes, ArrayRef<bool> outputs,
              bool copyInputsOut, Invocation &call) {
  RunResult result;
  auto describe = [](Type element, ArrayRef<int64_t> shape) {
    HostBuffer out;
    out.element = element;
    out.shape.assign(shape.begin(), shape.end());
    return out;
  };
  auto countBytes = [](const HostBuffer &buffer) {
    return ShapedType::getNumElements(buffer.shape) *
           getElementBytes(buffer.element);
  };
  for (auto [i, type, desc] : llvm::enumerate(argTypes, call.descriptors)) {
    HostBuffer &out =
        result.args.emplace_back(describe(type.getElementType(), desc.sizes));
    // An input stays on the GPU unless asked for: whether it changed is
    // checked below, in place.
    if (!copyInputsOut && !outputs[i])
      continue;
    out.bytes.resize(countBytes(out));
    if (llvm::Error err =
            copyBytes(driver, out.bytes.data(), desc.aligned, out.bytes.size()))
      return std::move(err);
  }
  for (auto &[index, before] : call.snapshots) {
    const HostBuffer &after = result.args[index];
    llvm::Expected<bool> same =
        after.bytes.empty()
            ? equalsInPlace(driver, call.descriptors[index].aligned, *before,
                            countBytes(after))
            : std::memcmp(before->data(), after.bytes.data(),
                          after.bytes.size()) == 0;
    if (!same)
      return same.takeError();
    if (!*same)
      result.changedInputs.push_back(index);
  }
  // Returned descriptors: aligned pointer at word 1, offset 2, sizes 3...
  size_t word = 0;
  for (MemRefType type : resultTypes) {
    int64_t rank = type.getRank();
    auto *aligned = reinterpret_cast<char *>(call.resultStorage[word + 1]);
    int64_t offset = call.resultStorage[word + 2];
    SmallVector<int64_t> sizes(call.resultStorage.begin() + word + 3,
                               call.resultStorage.begin() + word + 3 + rank);
    int64_t elementBytes = getElementBytes(type.getElementType());
    word += 3 + 2 * rank;
    char *data = aligned + offset * elementBytes;
    HostBuffer &out =
        result.results.emplace_back(describe(type.getElementType(), sizes));
    // The buffer of an argument copied out already (its type and shape)?
    int alias = -1;
    for (auto [i, desc] : llvm::enumerate(call.descriptors))
      if (desc.aligned == data && result.args[i].element == out.element &&
          result.args[i].shape == out.shape &&
          (!result.args[i].bytes.empty() || countBytes(out) == 0))
        alias = int(i);
    result.resultAliases.push_back(alias);
    if (alias >= 0)
      continue;
    out.bytes.resize(countBytes(out));
    if (llvm::Error err =
            copyBytes(driver, out.bytes.data(), data, out.bytes.size()))
      return std::move(err);
  }
  return result;
}

llvm::Expected<void (*)(void **)> Runner::lookupPacked() const {
  return engine->lookupPacked(entry);
}

llvm::Expected<RunResult> Runner::run(const RunOptions &options) {
  llvm::Expected<const cuda::Driver *> driver = getDriver(onCpu);
  if (!driver)
    return driver.takeError();
  ArrayRef<bool> outputs = options.outputArgs.empty()
                               ? ArrayRef<bool>(writtenArgs)
                               : ArrayRef<bool>(options.outputArgs);
  if (outputs.size() != argTypes.size())
    return llvm::createStringError(
        "internal error: output flags for " + llvm::Twine(outputs.size()) +
        " arguments, the function has " + llvm::Twine(argTypes.size()));
  Invocation call;
  if (llvm::Error err = prepare(*driver, argTypes, resultTypes, outputs,
                                equalDims, options, phasePrefix, call))
    return std::move(err);

  // With poisoned outputs, the buffers the function allocates (its returned
  // results) start poisoned too.
  if (options.poisonOutputs)
    runtime::setPoisonAllocations(
        getAllocationPoisonByte(options.poisonPattern));
  auto start = std::chrono::steady_clock::now();
  llvm::Error invoked = engine->invokePacked(entry, call.packed);
  runtime::setPoisonAllocations(-1);
  cuda::CUresult synced =
      *driver ? (*driver)->api().cuCtxSynchronize() : cuda::kSuccess;
  auto stop = std::chrono::steady_clock::now();
  addPhaseSeconds(phasePrefix + phase::kCall.str(),
                  std::chrono::duration<double>(stop - start).count());
  if (invoked)
    return std::move(invoked);
  if (*driver)
    if (llvm::Error err =
            checkCall(**driver, synced, "a kernel (cuCtxSynchronize)"))
      return std::move(err);

  // The memrefs the function returned are freed however this returns.
  llvm::scope_exit release([&] { releaseResults(*driver, resultTypes, call); });
  PhaseTimer copyOutTimer(phasePrefix + phase::kCopyOut.str());
  llvm::Expected<RunResult> result = collectResult(
      *driver, argTypes, resultTypes, outputs, options.copyInputsOut, call);
  if (result)
    result->milliseconds =
        std::chrono::duration<double, std::milli>(stop - start).count();
  return result;
}

llvm::Expected<Timing> Runner::time(const RunOptions &inputs,
                                    const TimingOptions &timing,
                                    RunResult *after) {
  llvm::Expected<const cuda::Driver *> driverOrNull = getDriver(onCpu);
  if (!driverOrNull)
    return driverOrNull.takeError();
  RunOptions options = inputs;
  options.poisonOutputs = false;
  SmallVector<bool> noOutputs(argTypes.size(), true);
  Invocation call;
  if (llvm::Error err = prepare(*driverOrNull, argTypes, resultTypes, noOutputs,
                                equalDims, options, phasePrefix, call))
    return std::move(err);
  PhaseTimer timer(phasePrefix + phase::kTiming.str());
  auto wallClock = [&]() -> llvm::Expected<double> {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = engine->invokePacked(entry, call.packed))
      return std::move(err);
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  const cuda::Driver *driver = *driverOrNull;

  // On the GPU, the kernels run on one stream with the events and the
  // flush; the stream, events and flush buffer go away however this
  // returns.
  struct Resources {
    const cuda::Driver *driver;
    cuda::CUstream stream = nullptr;
    cuda::CUevent start = nullptr, stop = nullptr;
    cuda::CUdeviceptr flush = 0;
    ~Resources() {
      if (!driver)
        return;
      const cuda::DriverApi &api = driver->api();
      runtime::setLaunchStream(nullptr);
      if (stream)
        (void)api.cuStreamSynchronize(stream);
      if (start)
        (void)api.cuEventDestroy(start);
      if (stop)
        (void)api.cuEventDestroy(stop);
      if (flush)
        (void)api.cuMemFree(flush);
      if (stream)
        (void)api.cuStreamDestroy(stream);
    }
  } res{driver};
  int64_t flushBytes = 0;
  if (driver) {
    const cuda::DriverApi &api = driver->api();
    if (llvm::Error err = driver->check(
            api.cuStreamCreate(&res.stream, cuda::kStreamNonBlocking),
            "cuStreamCreate"))
      return std::move(err);
    if (llvm::Error err =
            driver->check(api.cuEventCreate(&res.start, 0), "cuEventCreate"))
      return std::move(err);
    if (llvm::Error err =
            driver->check(api.cuEventCreate(&res.stop, 0), "cuEventCreate"))
      return std::move(err);
    if (timing.flushL2) {
      llvm::Expected<cuda::DeviceInfo> info = cuda::getDeviceInfo(*driver);
      if (!info)
        return info.takeError();
      // Twice the L2 (at least 8 MiB), whole 32-bit words.
      flushBytes =
          llvm::alignTo(std::max<int64_t>(2 * info->l2Bytes, 8 << 20), 4);
      if (llvm::Error err =
              driver->check(api.cuMemAlloc(&res.flush, flushBytes),
                            "cuMemAlloc (L2 flush buffer)"))
        return std::move(err);
    }
    runtime::setLaunchStream(res.stream);
  }
  // One call, flushed and timed by events on the stream.
  auto withEvents = [&](unsigned i) -> llvm::Expected<double> {
    const cuda::DriverApi &api = driver->api();
    if (res.flush)
      if (llvm::Error err = driver->check(
              api.cuMemsetD32Async(res.flush, i, flushBytes / 4, res.stream),
              "cuMemsetD32Async (L2 flush)"))
        return std::move(err);
    cuda::CUresult recorded = api.cuEventRecord(res.start, res.stream);
    llvm::Error invoked = engine->invokePacked(entry, call.packed);
    if (recorded == cuda::kSuccess)
      recorded = api.cuEventRecord(res.stop, res.stream);
    if (recorded == cuda::kSuccess)
      recorded = api.cuEventSynchronize(res.stop);
    if (invoked)
      return std::move(invoked);
    if (llvm::Error err = checkCall(*driver, recorded, "timing a call"))
      return std::move(err);
    float ms = 0;
    if (llvm::Error err =
            driver->check(api.cuEventElapsedTime(&ms, res.start, res.stop),
                          "cuEventElapsedTime"))
      return std::move(err);
    return ms;
  };

  std::vector<double> samples;
  unsigned calls = timing.warmup + std::max(1u, timing.runs);
  for (unsigned i = 0; i < calls; ++i) {
    llvm::Expected<double> ms = driver ? withEvents(i) : wallClock();
    if (!ms)
      return ms.takeError();
    if (after && i + 1 == calls) {
      ArrayRef<bool> outputs = inputs.outputArgs.empty()
                                   ? ArrayRef<bool>(writtenArgs)
                                   : ArrayRef<bool>(inputs.outputArgs);
      llvm::Expected<RunResult> left =
          collectResult(driver, argTypes, resultTypes, outputs,
                        /*copyInputsOut=*/false, call);
      if (!left) {
        releaseResults(driver, resultTypes, call);
        return left.takeError();
      }
      *after = std::move(*left);
    }
    releaseResults(driver, resultTypes, call);
    if (i >= timing.warmup)
      samples.push_back(*ms);
  }
  Timing summary = summarizeSamples(samples);
  summary.warmup = timing.warmup;
  summary.flushBytes = flushBytes;
  return summary;
}
