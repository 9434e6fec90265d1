//===- Runtime.cpp - C API: call compiled QiMeng modules ------------------===//
//
// Each function of a loaded module is a Runner (the verifier's JIT of the
// host code) whose packed entry is called on the caller's descriptors, with
// the mgpu runtime's launch stream set to the caller's stream for the
// duration of the call.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/CAPI/Runtime.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/InitAll.h"
#include "QiMeng/Planner/CompileSession.h"
#include "QiMeng/Runtime/MgpuRuntime.h"
#include "QiMeng/Verifier/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

using namespace mlir;
using namespace mlir::qimeng;

struct QimengFunction {
  std::unique_ptr<Runner> runner;
  void (*entry)(void **) = nullptr;
  /// Descriptor words per argument and per result.
  SmallVector<size_t> argWords, resultWords;
  /// Bytes per element of each result.
  SmallVector<int64_t> resultElementBytes;
  size_t totalArgWords = 0;
  std::string signature;
  bool onCpu = false;
};

struct QimengModule {
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
  bool onCpu = false;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<QimengFunction>> functions;
};

namespace {

/// Writes `message` into the caller's buffer (truncated, terminated).
void setError(char *error, size_t size, llvm::StringRef message) {
  if (!error || size == 0)
    return;
  size_t n = std::min(size - 1, message.size());
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

/// LLVM's native target and QiMeng's passes, once per process.
void initializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    registerAllPasses();
    // A module compiled here for the CPU takes the built-in paths only.
    CompileSession::disableLLM();
  });
}

llvm::json::Value describe(MemRefType type) {
  llvm::json::Array shape;
  for (int64_t size : type.getShape())
    shape.push_back(ShapedType::isDynamic(size) ? int64_t(-1) : size);
  return llvm::json::Object{{"element", debugString(type.getElementType())},
                            {"shape", std::move(shape)}};
}

/// Descriptor words of a memref of `rank`: two pointers, offset, sizes,
/// strides.
size_t wordsOf(int64_t rank) { return 3 + 2 * rank; }

/// The stream kernels go to: the caller's, or the legacy default stream
/// named explicitly (a null launch stream means "fresh streams, waited for").
void *launchStreamOf(void *stream) {
  constexpr uintptr_t kStreamLegacy = 0x1; // CU_STREAM_LEGACY
  return stream ? stream : reinterpret_cast<void *>(kStreamLegacy);
}

//===----------------------------------------------------------------------===//
// DLPack (https://github.com/dmlc/dlpack, ABI of DLManagedTensor)
//===----------------------------------------------------------------------===//

struct DLDevice {
  int32_t deviceType; // kDLCPU = 1, kDLCUDA = 2
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void *managerContext;
  void (*deleter)(DLManagedTensor *);
};

/// What a wrapped result keeps: its sizes and strides, and how to free it.
struct DLPackOwner {
  DLManagedTensor managed;
  std::vector<int64_t> shape, strides;
  void *allocated = nullptr;
  void *stream = nullptr;
};

void deleteDLPack(DLManagedTensor *managed) {
  auto *owner = static_cast<DLPackOwner *>(managed->managerContext);
  qimengFreeResult(owner->allocated, owner->stream);
  delete owner;
}

/// Replaces the descriptor at `desc` (of a memref of `rank`) by one of a
/// device copy of the elements it spans (a returned constant global); false
/// when it spans none or the copy failed.
bool copyBorrowed(int64_t *desc, size_t rank, int64_t elementBytes,
                  void *stream) {
  auto *aligned = reinterpret_cast<char *>(desc[1]);
  int64_t offset = desc[2];
  int64_t span = 1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = desc[3 + d], stride = desc[3 + rank + d];
    if (size <= 0 || !aligned)
      return false;
    span += (size - 1) * stride;
  }
  void *copy = runtime::copyToDevice(aligned + offset * elementBytes,
                                     span * elementBytes, stream);
  if (!copy)
    return false;
  desc[0] = desc[1] = reinterpret_cast<int64_t>(copy);
  desc[2] = 0;
  return true;
}

} // namespace

extern "C" {

int qimengRuntimeApiVersion(void) { return QIMENG_RUNTIME_API_VERSION; }

QimengModule *qimengModuleLoad(const char *path, int onCpu, char *error,
                               size_t errorSize) {
  initializeOnce();
  auto module = std::make_unique<QimengModule>();
  DialectRegistry registry;
  registerAllDialects(registry);
  module->context = std::make_unique<MLIRContext>(registry);
  module->onCpu = onCpu != 0;
  std::string diagnostics;
  {
    llvm::raw_string_ostream os(diagnostics);
    llvm::SourceMgr sources;
    SourceMgrDiagnosticHandler handler(sources, module->context.get(), os);
    module->module =
        parseSourceFile<ModuleOp>(path, sources, module->context.get());
  }
  if (!module->module) {
    setError(error, errorSize,
             "cannot load " + std::string(path) + ": " +
                 llvm::StringRef(diagnostics).trim().str());
    return nullptr;
  }
  return module.release();
}

void qimengModuleDestroy(QimengModule *module) { delete module; }

QimengFunction *qimengModuleLookup(QimengModule *module, const char *entry,
                                   char *error, size_t errorSize) {
  std::lock_guard<std::mutex> lock(module->mutex);
  std::unique_ptr<QimengFunction> &slot = module->functions[entry];
  if (slot)
    return slot.get();
  // On the CPU the kernels are plain loops: their reductions accumulate in
  // f64, as a serial f32 sum of 10^8 terms stops growing long before the end.
  llvm::Expected<std::unique_ptr<Runner>> runner = Runner::create(
      *module->module, entry,
      module->onCpu ? RunnerMode::Cpu : RunnerMode::Planned,
      /*phasePrefix=*/"", /*wideReductions=*/module->onCpu);
  if (!runner) {
    setError(error, errorSize, llvm::toString(runner.takeError()));
    module->functions.erase(entry);
    return nullptr;
  }
  llvm::Expected<void (*)(void **)> packed = (*runner)->lookupPacked();
  if (!packed) {
    setError(error, errorSize, llvm::toString(packed.takeError()));
    module->functions.erase(entry);
    return nullptr;
  }
  auto function = std::make_unique<QimengFunction>();
  function->entry = *packed;
  function->onCpu = module->onCpu;
  llvm::json::Array args, results;
  for (auto [type, written] :
       llvm::zip_equal((*runner)->getArgTypes(), (*runner)->getWrittenArgs())) {
    llvm::json::Value arg = describe(type);
    arg.getAsObject()->insert({"written", written});
    args.push_back(std::move(arg));
    function->argWords.push_back(wordsOf(type.getRank()));
    function->totalArgWords += function->argWords.back();
  }
  for (MemRefType type : (*runner)->getResultTypes()) {
    results.push_back(describe(type));
    function->resultWords.push_back(wordsOf(type.getRank()));
    function->resultElementBytes.push_back(
        getElementBytes(type.getElementType()));
  }
  llvm::raw_string_ostream(function->signature)
      << llvm::json::Value(llvm::json::Object{{"args", std::move(args)},
                                              {"results", std::move(results)}});
  function->runner = std::move(*runner);
  slot = std::move(function);
  return slot.get();
}

const char *qimengFunctionSignature(QimengFunction *function) {
  return function->signature.c_str();
}

int qimengFunctionCall(QimengFunction *function, int64_t *words,
                       int64_t *results, int64_t *kinds, void *stream,
                       char *error, size_t errorSize) {
  SmallVector<void *, 64> packed;
  packed.reserve(function->totalArgWords + 1);
  for (size_t i = 0; i < function->totalArgWords; ++i)
    packed.push_back(&words[i]);
  if (!function->resultWords.empty())
    packed.push_back(results);
  if (!function->onCpu)
    runtime::setLaunchStream(launchStreamOf(stream));
  function->entry(packed.data());
  runtime::setLaunchStream(nullptr);
  std::optional<std::string> failed =
      function->onCpu ? std::nullopt : runtime::takeError();

  // Which results the call allocated, and which are views of arguments or
  // of each other.
  SmallVector<void *> argBuffers;
  for (size_t i = 0, word = 0; i < function->argWords.size(); ++i) {
    argBuffers.push_back(reinterpret_cast<void *>(words[word]));
    word += function->argWords[i];
  }
  SmallVector<void *> seen;
  for (size_t r = 0, word = 0; r < function->resultWords.size(); ++r) {
    auto *allocated = reinterpret_cast<void *>(results[word]);
    word += function->resultWords[r];
    int64_t kind = QIMENG_RESULT_BORROWED, index = 0;
    bool copied = false;
    auto arg = llvm::find(argBuffers, allocated);
    auto earlier = llvm::find(seen, allocated);
    if (allocated && arg != argBuffers.end()) {
      kind = QIMENG_RESULT_ARGUMENT;
      index = arg - argBuffers.begin();
    } else if (allocated && earlier != seen.end()) {
      kind = QIMENG_RESULT_SAME_AS_RESULT;
      index = earlier - seen.begin();
    } else {
      switch (runtime::getBufferOwner(allocated)) {
      case runtime::BufferOwner::Device:
        kind = QIMENG_RESULT_DEVICE;
        break;
      case runtime::BufferOwner::Host:
        kind = QIMENG_RESULT_HOST;
        break;
      case runtime::BufferOwner::None:
        // On the GPU, memory the host code did not allocate is its own (a
        // constant global in host memory): the caller gets a device copy.
        copied = !function->onCpu && !failed &&
                 copyBorrowed(&results[word - function->resultWords[r]],
                              (function->resultWords[r] - 3) / 2,
                              function->resultElementBytes[r],
                              launchStreamOf(stream));
        if (copied)
          kind = QIMENG_RESULT_DEVICE;
        break;
      }
    }
    // A copied borrowed buffer is no earlier result of a later one (which
    // gets its own copy).
    seen.push_back(copied ? nullptr : allocated);
    kinds[2 * r] = kind;
    kinds[2 * r + 1] = index;
    // A failed call's own buffers are freed here: the caller gets none.
    if (failed && (kind == QIMENG_RESULT_DEVICE || kind == QIMENG_RESULT_HOST))
      runtime::freeReturnedBuffer(allocated, launchStreamOf(stream));
  }
  if (failed) {
    (void)runtime::takeError();
    setError(error, errorSize, *failed);
    return 1;
  }
  return 0;
}

void qimengFreeResult(void *allocated, void *stream) {
  if (!allocated)
    return;
  runtime::freeReturnedBuffer(allocated, launchStreamOf(stream));
  // A failure to free (a stream destroyed since) must not show as the next
  // call's error.
  (void)runtime::takeError();
}

void *qimengWrapDLPack(void *allocated, void *data, int onDevice,
                       int32_t deviceId, uint8_t dtypeCode, uint8_t bits,
                       int32_t rank, const int64_t *shape,
                       const int64_t *strides, void *stream) {
  auto *owner = new DLPackOwner();
  owner->shape.assign(shape, shape + rank);
  owner->strides.assign(strides, strides + rank);
  owner->allocated = allocated;
  owner->stream = stream;
  DLTensor &tensor = owner->managed.tensor;
  tensor.data = data;
  tensor.device = {onDevice ? 2 : 1, onDevice ? deviceId : 0};
  tensor.ndim = rank;
  tensor.dtype = {dtypeCode, bits, 1};
  tensor.shape = owner->shape.data();
  tensor.strides = owner->strides.data();
  tensor.byteOffset = 0;
  owner->managed.managerContext = owner;
  owner->managed.deleter = deleteDLPack;
  return &owner->managed;
}

} // extern "C"
