//===- Runner.cpp - Compile, JIT and run a kernel function on the GPU -----===//

#include "QiMeng/Verifier/Runner.h"

#include "QiMeng/Runtime/CudaDriver.h"
#include "QiMeng/Runtime/MgpuRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <random>

using namespace mlir;
using namespace mlir::qimeng;

Runner::~Runner() = default;

int64_t mlir::qimeng::getElementBytes(Type element) {
  if (element.isIndex())
    return 8;
  return std::max<int64_t>(
      1, llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
}

void mlir::qimeng::fillRandom(Type element, int64_t count, uint64_t seed,
                              void *data) {
  int64_t bytes = getElementBytes(element);
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType) {
    std::memset(data, 0, count * bytes);
    return;
  }
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  char *out = static_cast<char *>(data);
  for (int64_t i = 0; i < count; ++i) {
    float value = uniform(generator);
    if (element.isF32()) {
      std::memcpy(out + i * 4, &value, 4);
    } else if (element.isF64()) {
      double wide = value;
      std::memcpy(out + i * 8, &wide, 8);
    } else {
      // Round to the narrow type (f16, bf16) as IEEE conversion does.
      llvm::APFloat narrow(value);
      bool lossy = false;
      narrow.convert(floatType.getFloatSemantics(),
                     llvm::APFloat::rmNearestTiesToEven, &lossy);
      uint64_t bits = narrow.bitcastToAPInt().getZExtValue();
      std::memcpy(out + i * bytes, &bits, bytes);
    }
  }
}

void mlir::qimeng::fillPoison(Type element, int64_t count, void *data) {
  int64_t bytes = getElementBytes(element);
  if (!isa<FloatType>(element)) {
    std::memset(data, 0x7f, count * bytes);
    return;
  }
  auto floatType = cast<FloatType>(element);
  uint64_t bits = llvm::APFloat::getQNaN(floatType.getFloatSemantics())
                      .bitcastToAPInt()
                      .getZExtValue();
  char *out = static_cast<char *>(data);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(out + i * bytes, &bits, bytes);
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
        element.isInteger(64)))
    return llvm::createStringError(what + " has element type of " + name +
                                   " that the runner does not generate");
  return llvm::Error::success();
}

/// The function argument `value` is (a view of), or null.
static BlockArgument getRootArgument(Value value, func::FuncOp func) {
  while (value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == &func.getBody().front() ? arg : BlockArgument();
    Operation *def = value.getDefiningOp();
    if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def))
      value = view.getViewSource();
    else
      return BlockArgument();
  }
  return BlockArgument();
}

/// Which arguments of `func` something writes to.
static SmallVector<bool> findWrittenArgs(func::FuncOp func) {
  SmallVector<bool> written(func.getNumArguments(), false);
  func.walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances)
      if (isa<MemoryEffects::Write>(effect.getEffect()))
        if (BlockArgument arg = getRootArgument(effect.getValue(), func))
          written[arg.getArgNumber()] = true;
  });
  return written;
}

llvm::Expected<std::unique_ptr<Runner>>
Runner::create(ModuleOp module, llvm::StringRef entry, bool reference) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> copy = module.clone();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += diag.str() + "\n";
    return success();
  });
  auto runPipeline = [&](llvm::StringRef pipeline) -> llvm::Error {
    PassManager pm(ctx);
    if (failed(parsePassPipeline(pipeline, pm)))
      return llvm::createStringError("internal error: bad pipeline " +
                                     pipeline);
    if (failed(pm.run(*copy)))
      return llvm::createStringError("compiling failed: " + diagnostics);
    return llvm::Error::success();
  };
  // Plan, bufferize and realize: the entry's signature is then on memrefs.
  if (llvm::Error err =
          runPipeline(reference ? "llm-plan{naive=true}" : "llm-plan"))
    return std::move(err);
  auto func = copy->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return llvm::createStringError("no function @" + entry +
                                   " with a body in the module");
  std::unique_ptr<Runner> runner(new Runner());
  runner->entry = entry.str();
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (llvm::Error err = checkMemRef(
            type, llvm::formatv("argument {0} of @{1}", i, entry).str()))
      return std::move(err);
    runner->argTypes.push_back(cast<MemRefType>(type));
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    if (llvm::Error err = checkMemRef(
            type, llvm::formatv("result {0} of @{1}", i, entry).str()))
      return std::move(err);
    runner->resultTypes.push_back(cast<MemRefType>(type));
  }
  runner->writtenArgs = findWrittenArgs(func);
  if (llvm::Error err = runPipeline("lower-to-nvvm"))
    return std::move(err);

  // The GPU first: loading the kernels runs at JIT initialization.
  llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
  if (!driver)
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

/// A managed-memory buffer, freed on destruction.
struct ManagedBuffer {
  const cuda::Driver *driver = nullptr;
  cuda::CUdeviceptr ptr = 0;
  ~ManagedBuffer() {
    if (ptr)
      (void)driver->api().cuMemFree(ptr);
  }
};

/// The packed-argument form of a memref descriptor: allocated and aligned
/// pointers, offset, sizes, strides (row-major).
struct Descriptor {
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;
};

} // namespace

llvm::Expected<RunResult> Runner::run(const RunOptions &options) {
  llvm::Expected<cuda::Driver &> driver = cuda::Driver::get();
  if (!driver)
    return driver.takeError();
  const cuda::DriverApi &api = driver->api();
  std::vector<std::unique_ptr<ManagedBuffer>> buffers;
  SmallVector<Descriptor> descriptors;
  ArrayRef<bool> outputs =
      options.outputArgs.empty() ? ArrayRef<bool>(writtenArgs)
                                 : ArrayRef<bool>(options.outputArgs);
  if (outputs.size() != argTypes.size())
    return llvm::createStringError("internal error: output flags for " +
                                   llvm::Twine(outputs.size()) +
                                   " arguments, the function has " +
                                   llvm::Twine(argTypes.size()));
  // Contents of the arguments the function must not write.
  SmallVector<std::pair<unsigned, std::vector<char>>> snapshots;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    SmallVector<int64_t> shape(type.getShape());
    auto given = options.dynamicSizes.find(i);
    unsigned next = 0;
    for (int64_t &d : shape) {
      if (!ShapedType::isDynamic(d))
        continue;
      if (given == options.dynamicSizes.end() || next >= given->second.size())
        return llvm::createStringError(
            llvm::formatv("argument {0} has a dynamic size: give it with "
                          "--shape {0}=AxB...",
                          i));
      d = given->second[next++];
    }
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    int64_t bytes =
        std::max<int64_t>(1, count) * getElementBytes(type.getElementType());
    auto buffer = std::make_unique<ManagedBuffer>();
    buffer->driver = &*driver;
    if (llvm::Error err = driver->check(
            api.cuMemAllocManaged(&buffer->ptr, bytes, cuda::kMemAttachGlobal),
            "cuMemAllocManaged"))
      return std::move(err);
    void *data = reinterpret_cast<void *>(buffer->ptr);
    if (options.poisonOutputs && outputs[i])
      fillPoison(type.getElementType(), count, data);
    else
      fillRandom(type.getElementType(), count, options.seed * 1000003u + i,
                 data);
    if (!outputs[i])
      snapshots.emplace_back(i, std::vector<char>(static_cast<char *>(data),
                                                  static_cast<char *>(data) +
                                                      bytes));
    Descriptor desc;
    desc.allocated = desc.aligned = data;
    desc.sizes = shape;
    desc.strides.assign(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      desc.strides[d] = desc.strides[d + 1] * shape[d + 1];
    descriptors.push_back(std::move(desc));
    buffers.push_back(std::move(buffer));
  }
  // One pointer per scalar of each expanded descriptor, then the results.
  SmallVector<void *> packed;
  for (Descriptor &desc : descriptors) {
    packed.push_back(&desc.allocated);
    packed.push_back(&desc.aligned);
    packed.push_back(&desc.offset);
    for (int64_t &s : desc.sizes)
      packed.push_back(&s);
    for (int64_t &s : desc.strides)
      packed.push_back(&s);
  }
  size_t resultWords = 0;
  for (MemRefType type : resultTypes)
    resultWords += 3 + 2 * type.getRank();
  std::vector<int64_t> resultStorage(std::max<size_t>(resultWords, 1));
  if (!resultTypes.empty())
    packed.push_back(resultStorage.data());

  auto start = std::chrono::steady_clock::now();
  llvm::Error invoked = engine->invokePacked(entry, packed);
  cuda::CUresult synced = api.cuCtxSynchronize();
  auto stop = std::chrono::steady_clock::now();
  if (invoked)
    return std::move(invoked);
  if (std::optional<std::string> error = runtime::takeError())
    return llvm::createStringError("the run failed: " + *error);
  if (llvm::Error err = driver->check(synced, "a kernel (cuCtxSynchronize)"))
    return std::move(err);

  RunResult result;
  result.milliseconds =
      std::chrono::duration<double, std::milli>(stop - start).count();
  auto copyOut = [](Type element, ArrayRef<int64_t> shape, const void *data) {
    HostBuffer out;
    out.element = element;
    out.shape.assign(shape.begin(), shape.end());
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    out.bytes.resize(count * getElementBytes(element));
    if (!out.bytes.empty())
      std::memcpy(out.bytes.data(), data, out.bytes.size());
    return out;
  };
  for (auto [type, desc] : llvm::zip(argTypes, descriptors))
    result.args.push_back(
        copyOut(type.getElementType(), desc.sizes, desc.aligned));
  for (auto &[index, before] : snapshots)
    if (std::memcmp(before.data(), descriptors[index].aligned, before.size()) !=
        0)
      result.changedInputs.push_back(index);
  // Returned descriptors: aligned pointer at word 1, offset 2, sizes 3...
  size_t word = 0;
  for (MemRefType type : resultTypes) {
    int64_t rank = type.getRank();
    auto *aligned = reinterpret_cast<char *>(resultStorage[word + 1]);
    int64_t offset = resultStorage[word + 2];
    SmallVector<int64_t> sizes(resultStorage.begin() + word + 3,
                               resultStorage.begin() + word + 3 + rank);
    int64_t elementBytes = getElementBytes(type.getElementType());
    result.results.push_back(
        copyOut(type.getElementType(), sizes, aligned + offset * elementBytes));
    word += 3 + 2 * rank;
  }
  return result;
}
