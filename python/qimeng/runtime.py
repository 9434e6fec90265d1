"""Calls compiled QiMeng modules on torch tensors (libqimeng_runtime.so).

A module is the output of `qimeng-opt --lower-to-nvvm` (the host code and a
`gpu.binary` per kernel module). Loading it JIT-compiles the host code once
and loads the kernels; a call passes the tensors' memory, sizes and strides
to the host code, which launches the kernels on the current CUDA stream
without waiting for them and returns its results as torch tensors (device
memory from CUDA's stream-ordered pool, handed over by DLPack, no copy).
With `on_cpu=True` the module must be the linalg program itself, compiled to
loops on the host: the same calling path without a GPU (tests).
"""

import ctypes
import json
import threading

from . import _tools

_API_VERSION = 1
_ERROR_BYTES = 4096

# Result kinds (QimengResultKind in include/QiMeng/CAPI/Runtime.h).
_DEVICE, _HOST, _ARGUMENT, _SAME_AS_RESULT, _BORROWED = range(5)

# MLIR element type -> (torch dtype name, DLPack type code, bits).
_ELEMENTS = {
    "f32": ("float32", 2, 32),
    "f64": ("float64", 2, 64),
    "f16": ("float16", 2, 16),
    "bf16": ("bfloat16", 4, 16),
    "i1": ("bool", 6, 8),
    "i8": ("int8", 0, 8),
    "i16": ("int16", 0, 16),
    "i32": ("int32", 0, 32),
    "i64": ("int64", 0, 64),
    "index": ("int64", 0, 64),
}

_lib = None
_lib_lock = threading.Lock()


class QimengRuntimeError(RuntimeError):
    """Loading or calling a compiled module failed."""


def _library():
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        lib = ctypes.CDLL(str(_tools.runtime_library()))
        i64p = ctypes.POINTER(ctypes.c_int64)
        sigs = {
            "qimengRuntimeApiVersion": ([], ctypes.c_int),
            "qimengModuleLoad": (
                [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t],
                ctypes.c_void_p),
            "qimengModuleDestroy": ([ctypes.c_void_p], None),
            "qimengModuleLookup": (
                [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                 ctypes.c_size_t], ctypes.c_void_p),
            "qimengFunctionSignature": ([ctypes.c_void_p], ctypes.c_char_p),
            "qimengFunctionCall": (
                [ctypes.c_void_p, i64p, i64p, i64p, ctypes.c_void_p,
                 ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int),
            "qimengFreeResult": ([ctypes.c_void_p, ctypes.c_void_p], None),
            "qimengWrapDLPack": (
                [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int32,
                 ctypes.c_uint8, ctypes.c_uint8, ctypes.c_int32, i64p, i64p,
                 ctypes.c_void_p], ctypes.c_void_p),
        }
        for name, (args, res) in sigs.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, res
        version = lib.qimengRuntimeApiVersion()
        if version != _API_VERSION:
            raise QimengRuntimeError(
                f"libqimeng_runtime.so speaks API version {version}, this "
                f"package {_API_VERSION}: rebuild QiMeng or reinstall the package")
        _lib = lib
        return lib


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Module:
    """A compiled module, loaded once; `module.function(name)` or
    `module[name]` gives a callable."""

    def __init__(self, path, on_cpu=False):
        self._lib = _library()
        self.path = str(path)
        self.on_cpu = bool(on_cpu)
        err = ctypes.create_string_buffer(_ERROR_BYTES)
        self._handle = self._lib.qimengModuleLoad(
            self.path.encode(), int(self.on_cpu), err, _ERROR_BYTES)
        if not self._handle:
            raise QimengRuntimeError(err.value.decode(errors="replace"))
        self._functions = {}

    def function(self, entry):
        if entry not in self._functions:
            self._functions[entry] = Function(self, entry)
        return self._functions[entry]

    __getitem__ = function

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._lib.qimengModuleDestroy(handle)
            self._handle = None


class ArgSpec:
    def __init__(self, d):
        self.element = d["element"]
        self.shape = list(d["shape"])
        self.written = bool(d.get("written", False))
        if self.element not in _ELEMENTS:
            raise QimengRuntimeError(f"unsupported element type {self.element}")
        self.rank = len(self.shape)


class Function:
    """One public function of a module, called on torch tensors: one per
    memref argument, in order; returns the list of its results (tensors;
    a destination-passing function's outputs are written in place)."""

    def __init__(self, module, entry):
        import torch

        self._torch = torch
        self.module = module  # keeps the JIT and the kernels alive
        self.entry = entry
        lib = module._lib
        err = ctypes.create_string_buffer(_ERROR_BYTES)
        self._handle = lib.qimengModuleLookup(
            module._handle, entry.encode(), err, _ERROR_BYTES)
        if not self._handle:
            raise QimengRuntimeError(err.value.decode(errors="replace"))
        sig = json.loads(lib.qimengFunctionSignature(self._handle).decode())
        self.args = [ArgSpec(a) for a in sig["args"]]
        self.results = [ArgSpec(r) for r in sig["results"]]
        self._dtypes = [getattr(torch, _ELEMENTS[a.element][0]) for a in self.args]
        self._nwords = sum(3 + 2 * a.rank for a in self.args)
        self._nresult = sum(3 + 2 * r.rank for r in self.results)
        self._err = ctypes.create_string_buffer(_ERROR_BYTES)

    def _check(self, i, spec, t):
        torch = self._torch
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{self.entry}: argument {i} is not a tensor")
        if t.dtype != self._dtypes[i]:
            raise TypeError(f"{self.entry}: argument {i} is {t.dtype}, the "
                            f"function takes {spec.element}")
        if t.dim() != spec.rank or any(
                s >= 0 and s != n for s, n in zip(spec.shape, t.shape)):
            raise ValueError(f"{self.entry}: argument {i} has shape "
                             f"{tuple(t.shape)}, the function takes "
                             f"{['?' if s < 0 else s for s in spec.shape]}")
        if self.module.on_cpu:
            if t.device.type != "cpu":
                raise ValueError(f"{self.entry}: argument {i} is on {t.device}; "
                                 "this module runs on the CPU")
        elif t.device.type != "cuda" or (t.device.index or 0) != 0:
            raise ValueError(f"{self.entry}: argument {i} is on {t.device}; "
                             "QiMeng's kernels run on cuda:0")

    def __call__(self, *tensors):
        torch = self._torch
        if len(tensors) != len(self.args):
            raise TypeError(f"{self.entry} takes {len(self.args)} tensors, "
                            f"{len(tensors)} given")
        words = []
        passed = []
        copy_back = []
        for i, (spec, t) in enumerate(zip(self.args, tensors)):
            self._check(i, spec, t)
            # The kernels take row-major buffers (identity layouts).
            c = t if t.is_contiguous() else t.contiguous()
            if c is not t and spec.written:
                copy_back.append((t, c))
            passed.append(c)
            ptr = c.data_ptr()
            words += [ptr, ptr, 0]
            words += c.shape
            words += c.stride()
        word_array = (ctypes.c_int64 * max(1, self._nwords))(*words)
        result_array = (ctypes.c_int64 * max(1, self._nresult))()
        kinds = (ctypes.c_int64 * max(1, 2 * len(self.results)))()
        if self.module.on_cpu:
            stream = None
        else:
            stream = torch.cuda.current_stream(0).cuda_stream or None
        rc = self.module._lib.qimengFunctionCall(
            self._handle, word_array, result_array, kinds, stream, self._err,
            _ERROR_BYTES)
        if rc != 0:
            raise QimengRuntimeError(
                f"{self.entry}: {self._err.value.decode(errors='replace')}")
        for t, c in copy_back:
            t.copy_(c)
        return self._results(passed, result_array, kinds, stream)

    def _results(self, passed, words, kinds, stream):
        torch = self._torch
        out = []
        at = 0
        lib = self.module._lib
        for r, spec in enumerate(self.results):
            rank = spec.rank
            allocated, aligned, offset = words[at], words[at + 1], words[at + 2]
            sizes = list(words[at + 3:at + 3 + rank])
            strides = list(words[at + 3 + rank:at + 3 + 2 * rank])
            at += 3 + 2 * rank
            kind, index = kinds[2 * r], kinds[2 * r + 1]
            dtype_name, code, bits = _ELEMENTS[spec.element]
            dtype = getattr(torch, dtype_name)
            esize = max(1, bits // 8)
            data = (aligned or 0) + offset * esize
            count = 1
            for s in sizes:
                count *= s
            if kind in (_ARGUMENT, _SAME_AS_RESULT):
                base = passed[index] if kind == _ARGUMENT else out[index]
                delta = (data - base.data_ptr()) // esize
                out.append(torch.as_strided(base, sizes, strides,
                                            base.storage_offset() + delta))
                continue
            owned = kind in (_DEVICE, _HOST)
            if count == 0 or not aligned:
                if owned:
                    lib.qimengFreeResult(allocated, stream)
                device = "cpu" if self.module.on_cpu else "cuda:0"
                out.append(torch.empty(sizes, dtype=dtype, device=device))
                continue
            shape_arr = (ctypes.c_int64 * max(1, rank))(*sizes)
            stride_arr = (ctypes.c_int64 * max(1, rank))(*strides)
            managed = lib.qimengWrapDLPack(
                allocated if owned else None, data, int(kind != _HOST and
                                                        not self.module.on_cpu),
                0, code, bits, rank, shape_arr, stride_arr, stream)
            tensor = torch.utils.dlpack.from_dlpack(
                _capsule_new(managed, b"dltensor", None))
            # Memory the call does not own (a constant of the module) is
            # copied: the tensor must not outlive the module's memory. A
            # GPU module's result in host memory goes to the GPU.
            if not owned:
                tensor = tensor.clone()
            if kind == _HOST and not self.module.on_cpu:
                tensor = tensor.to("cuda:0")
            out.append(tensor)
        return out
