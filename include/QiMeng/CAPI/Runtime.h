/*===- Runtime.h - C API: call compiled QiMeng modules ------------*- C -*-===*\
|*                                                                            *|
|* The runtime as a C library (libqimeng_runtime.so) for callers outside     *|
|* C++: the PyTorch integration (python/qimeng) loads it with ctypes. A      *|
|* module is the output of `qimeng-opt --lower-to-nvvm`; its host code is    *|
|* JIT-compiled once and each call runs it on the caller's buffers and       *|
|* stream. No CUDA or MLIR headers are needed to use it; functions that can  *|
|* fail return non-zero (or null) and write one line into `error`.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef QIMENG_CAPI_RUNTIME_H
#define QIMENG_CAPI_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The version of this interface; a caller checks it before anything else.
#define QIMENG_RUNTIME_API_VERSION 1

typedef struct QimengModule QimengModule;
typedef struct QimengFunction QimengFunction;

/// How a result of a call came back (QimengFunction's `kinds`).
enum QimengResultKind {
  /// A device buffer the call allocated: the caller owns it and frees it
  /// with qimengFreeResult (or hands it on with qimengWrapDLPack).
  QIMENG_RESULT_DEVICE = 0,
  /// A host buffer the call allocated (modules run on the CPU): the same.
  QIMENG_RESULT_HOST = 1,
  /// A view of argument `index`'s buffer (a function that returns its
  /// destination or a reshape of an input): not to be freed.
  QIMENG_RESULT_ARGUMENT = 2,
  /// The same buffer as an earlier result `index`: not to be freed twice.
  QIMENG_RESULT_SAME_AS_RESULT = 3,
  /// Memory the call did not allocate (a constant the module holds): valid
  /// while the module is loaded; the caller copies it.
  QIMENG_RESULT_BORROWED = 4,
};

int qimengRuntimeApiVersion(void);

/// Loads the module in the file at `path`: the output of `qimeng-opt
/// --lower-to-nvvm` runs on the GPU (device 0, its primary context: the one
/// PyTorch uses); with `onCpu` non-zero, a module of linalg kernels not
/// lowered yet is compiled to loops on the host instead (no GPU needed).
QimengModule *qimengModuleLoad(const char *path, int onCpu, char *error,
                               size_t errorSize);
void qimengModuleDestroy(QimengModule *module);

/// The public function `entry` of `module` (owned by the module): the
/// JIT-compiled host code and its signature.
QimengFunction *qimengModuleLookup(QimengModule *module, const char *entry,
                                   char *error, size_t errorSize);

/// The function's signature as JSON, owned by the function:
///   {"args": [{"element": "f32", "shape": [8, -1], "written": true}, ...],
///    "results": [{"element": "f32", "shape": [8, 32]}, ...]}
/// A shape holds -1 for a dynamic size; "written" says whether the
/// function writes the argument.
const char *qimengFunctionSignature(QimengFunction *function);

/// Calls the function. `words` holds each memref argument's descriptor in
/// order, as 64-bit words: allocated pointer, aligned pointer, offset (in
/// elements), sizes, strides (in elements). `results` receives each
/// result's descriptor in the same form, `kinds` two words per result: a
/// QimengResultKind and the index it names. Kernels go to `stream` (a
/// CUstream; null: the legacy default stream) without waiting for them.
/// Returns 0, or non-zero with the first error (a launch that failed, a
/// kernel fault an earlier call left): the results are then not set.
int qimengFunctionCall(QimengFunction *function, int64_t *words,
                       int64_t *results, int64_t *kinds, void *stream,
                       char *error, size_t errorSize);

/// Frees a result the caller owns (QIMENG_RESULT_DEVICE or _HOST) by its
/// allocated pointer, in order on `stream` for device memory.
void qimengFreeResult(void *allocated, void *stream);

/// Wraps an owned result (QIMENG_RESULT_DEVICE or _HOST) in a DLPack
/// DLManagedTensor (https://dmlc.github.io/dlpack/) whose deleter frees it
/// with qimengFreeResult on `stream`: frameworks take it without a copy.
/// `dtypeCode`/`bits`: DLPack's type code (0 int, 1 uint, 2 float, 4 bfloat,
/// 6 bool) and width. `shape`/`strides` (in elements) have `rank` entries.
void *qimengWrapDLPack(void *allocated, void *data, int onDevice,
                       int32_t deviceId, uint8_t dtypeCode, uint8_t bits,
                       int32_t rank, const int64_t *shape,
                       const int64_t *strides, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* QIMENG_CAPI_RUNTIME_H */
