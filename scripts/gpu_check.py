#!/usr/bin/env python3
"""Runs the PTX that qimeng-opt generated for examples/ on a CUDA GPU and
checks each result against PyTorch.

This is a stop-gap harness for checking the built-in code generator on a GPU
machine (it needs PyTorch there, and the CUDA driver); the verifier of
docs/design.md replaces it. Inputs come from a directory made by
`scripts/compile-examples.sh`: <name>.ptx.d/<module>.ptx and
<name>.launch.json for each example.

Usage: gpu_check.py DIR [NAME ...]
A name NAME@VARIANT (a plan variant of example NAME) uses NAME's reference.
"""
import ctypes
import json
import math
import os
import re
import sys

import torch
import torch.nn.functional as F

# --- PyTorch references: inputs (in argument order) -> {arg index: result} ---


def _mm(a, b, c):
    return {2: a @ b}


REFERENCES = {
    "matmul": _mm,
    "matmul_irregular": _mm,
    "matmul_odd": _mm,
    "matmul_unroll": _mm,
    "matmul_pipeline": _mm,
    "matmul_large_k": _mm,
    "matmul_small_k": _mm,
    "matmul_tall_skinny": _mm,
    "matmul_transpose_a": lambda a, b, c: {2: a.t() @ b},
    "matmul_transpose_b": lambda a, b, c: {2: a @ b.t()},
    "matmul_f16": lambda a, b, c: {2: a.float() @ b.float()},
    "matmul_bf16": lambda a, b, c: {2: a.float() @ b.float()},
    "batch_matmul": lambda a, b, c: {2: torch.bmm(a, b)},
    "matvec": lambda a, x, y: {2: a @ x},
    "relu": lambda x, y: {1: torch.relu(x)},
    "gelu": lambda x, y: {1: F.gelu(x, approximate="tanh")},
    "sigmoid": lambda x, y: {1: torch.sigmoid(x)},
    "softplus_tanh": lambda x, t, y: {2: torch.tanh(F.softplus(x.float())).half()},
    "bias_add_broadcast": lambda x, b, y: {2: x + b},
    "reduce_sum_rows": lambda x, y: {1: x.sum(1)},
    "reduce_max_cols": lambda x, y: {1: x.amax(0)},
    "reduce_mean_min": lambda x, m, n: {1: x.mean(1), 2: x.amin(1)},
    "argmax": lambda x, v, i: {2: x.argmax(1)},
    "softmax": lambda x, y: {1: torch.softmax(x, 1)},
    "log_softmax": lambda x, m, s, y: {3: torch.log_softmax(x, 1)},
    "layernorm": lambda x, m, v, y: {3: F.layer_norm(x, (x.shape[1],), eps=1e-5)},
    "rmsnorm": lambda x, w, s, y: {
        3: x * torch.rsqrt(x.pow(2).mean(1, keepdim=True) + 1e-6) * w},
    "conv2d_nhwc": lambda x, w, y: {
        2: F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1)).permute(0, 2, 3, 1)},
    "conv2d_nchw_stride2": lambda x, w, y: {2: F.conv2d(x, w, stride=2)},
    "conv2d_padded": lambda x, w, y: {
        2: F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), padding=1).permute(0, 2, 3, 1)},
    "depthwise_conv": lambda x, w, y: {
        2: F.conv2d(x.permute(0, 3, 1, 2), w.permute(2, 0, 1).unsqueeze(1),
                    groups=x.shape[3]).permute(0, 2, 3, 1)},
    "maxpool": lambda x, y: {
        1: F.max_pool2d(x.permute(0, 3, 1, 2), 2, 2).permute(0, 2, 3, 1)},
    "avgpool": lambda x, y: {
        1: F.avg_pool2d(x.permute(0, 3, 1, 2), 3, 1).permute(0, 2, 3, 1)},
    "linear_bias_relu": lambda x, w, b, y: {3: torch.relu(x @ w + b)},
    "gemm_scale_leaky_relu": lambda a, b, y: {2: F.leaky_relu((a @ b) * 2.0, 0.01)},
    "conv_bias_relu": lambda x, w, b, y: {
        3: torch.relu(F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1)).permute(0, 2, 3, 1) + b)},
    "elementwise_dynamic_batch": lambda x, y: {1: x * 2 + 1},
}
# Destination arguments that hold intermediate results (written, but not
# compared): they are exempt from the "inputs unchanged" check.
SCRATCH = {
    "argmax": {1},
    "layernorm": {1, 2},
    "log_softmax": {1, 2},
    "rmsnorm": {2},
}
DYNAMIC_SIZE = 37  # value of every '?' dimension

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "i64": torch.int64, "i32": torch.int32}


def parse_memref(t):
    m = re.fullmatch(r"memref<(.*)x(\w+)>", t) or re.fullmatch(r"memref<(\w+)>", t)
    if not m:
        raise ValueError(f"unsupported kernel operand type {t}")
    if len(m.groups()) == 1:
        return [], DTYPES[m.group(1)]
    dims = [DYNAMIC_SIZE if d == "?" else int(d) for d in m.group(1).split("x")]
    return dims, DTYPES[m.group(2)]


class Driver:
    def __init__(self):
        self.cuda = ctypes.CDLL("libcuda.so.1")
        torch.cuda.init()
        torch.zeros(1, device="cuda")  # makes the primary context current
        self.modules = {}

    def check(self, rc, what):
        if rc != 0:
            name = ctypes.c_char_p()
            self.cuda.cuGetErrorName(rc, ctypes.byref(name))
            raise RuntimeError(f"{what} failed: {name.value.decode()}")

    def function(self, ptx_path, kernel):
        key = (ptx_path, kernel)
        if key not in self.modules:
            module = ctypes.c_void_p()
            data = open(ptx_path, "rb").read() + b"\0"
            self.check(self.cuda.cuModuleLoadData(ctypes.byref(module), data),
                       f"cuModuleLoadData({ptx_path})")
            fn = ctypes.c_void_p()
            self.check(self.cuda.cuModuleGetFunction(
                ctypes.byref(fn), module, kernel.encode()), "cuModuleGetFunction")
            self.modules[key] = fn
        return self.modules[key]

    def launch(self, fn, grid, block, tensors):
        params = []
        for t in tensors:
            if isinstance(t, torch.Tensor):
                ptr = t.data_ptr()
                params += [ctypes.c_uint64(ptr), ctypes.c_uint64(ptr), ctypes.c_int64(0)]
                params += [ctypes.c_int64(s) for s in t.shape]
                params += [ctypes.c_int64(s) for s in t.stride()]
            elif isinstance(t, float):
                params.append(ctypes.c_float(t))
            else:
                params.append(ctypes.c_int64(t))
        ptrs = (ctypes.c_void_p * len(params))(
            *[ctypes.cast(ctypes.pointer(p), ctypes.c_void_p) for p in params])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        self.check(self.cuda.cuLaunchKernel(
            fn, *[ctypes.c_uint(g) for g in grid], *[ctypes.c_uint(b) for b in block],
            ctypes.c_uint(0), stream, ptrs, None), "cuLaunchKernel")


def reference_of(name):
    """A plan variant NAME@VARIANT checks against NAME's reference."""
    return REFERENCES[name.split("@")[0]]


def compare_outputs(args, ref):
    """Checks each output args[i] against ref[i]: floats within 1e-3 (f32) or
    1e-2 (16-bit) relative to max(|ref|, 1) and finite, integers exact.
    Returns (all ok, worst relative error)."""
    worst, ok = 0.0, True
    for i, expected in ref.items():
        got = args[i]
        if got.dtype.is_floating_point:
            tol = 1e-2 if got.dtype != torch.float32 else 1e-3
            err = (got.float() - expected.float()).abs()
            scale = expected.float().abs().clamp(min=1.0)
            rel = (err / scale).max().item()
            worst = max(worst, rel)
            ok &= bool(torch.isfinite(got.float()).all()) and rel <= tol
        else:
            ok &= bool(torch.equal(got, expected.to(got.dtype)))
    return ok, worst


def run_example(driver, directory, name):
    launches = json.load(open(os.path.join(directory, name + ".launch.json")))
    args, allocs = {}, {}
    for launch in launches:
        for a in launch["args"]:
            if "arg" in a and a["arg"] not in args:
                dims, dtype = parse_memref(a["type"])
                if dtype.is_floating_point:
                    args[a["arg"]] = (torch.rand(dims, device="cuda") * 2 - 1).to(dtype)
                else:
                    args[a["arg"]] = torch.zeros(dims, device="cuda", dtype=dtype)
    # Arguments no kernel touches (e.g. a temporary that fusion removed) are
    # passed to the reference as None.
    count = max(args) + 1
    inputs = [args[i].clone() if i in args else None for i in range(count)]
    ref = reference_of(name)(*[t.clone() if t is not None else None for t in inputs])

    def run_once():
        for launch in launches:
            operands = []
            for a in launch["args"]:
                if "arg" in a:
                    operands.append(args[a["arg"]])
                elif "alloc" in a:
                    if a["alloc"] not in allocs:
                        dims, dtype = parse_memref(a["type"])
                        allocs[a["alloc"]] = torch.empty(dims, device="cuda", dtype=dtype)
                    operands.append(allocs[a["alloc"]])
                else:
                    operands.append(a["const"])
            ptx = os.path.join(directory, name + ".ptx.d", launch["module"] + ".ptx")
            driver.launch(driver.function(ptx, launch["kernel"]),
                          launch["grid"], launch["block"], operands)

    # Poison outputs so a kernel that writes nothing cannot pass.
    for i in ref:
        if args[i].dtype.is_floating_point:
            args[i].fill_(float("nan"))
    run_once()
    torch.cuda.synchronize()
    # Inputs must come back unchanged.
    scratch = SCRATCH.get(name.split("@")[0], set())
    ok = all(torch.equal(args[i], inputs[i])
             for i in args if i not in ref and i not in scratch)
    outputs_ok, worst = compare_outputs(args, ref)
    ok &= outputs_ok
    # Timing: both sides captured in a CUDA graph (so Python launch overhead
    # does not count), replayed under CUDA events; warm L2, a quick look.
    def graph_ms(fn):
        fn()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        for _ in range(3):
            graph.replay()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        reps = 50
        start.record()
        for _ in range(reps):
            graph.replay()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / reps

    ms = graph_ms(run_once)
    reference = reference_of(name)
    torch_ms = graph_ms(lambda: reference(*inputs))
    return ok, worst, ms, torch_ms, len(launches)


def main():
    # Exact fp32 references: no TF32 in cuBLAS or cuDNN.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    directory = sys.argv[1]
    names = sys.argv[2:] or sorted(
        f[:-len(".launch.json")] for f in os.listdir(directory) if f.endswith(".launch.json"))
    driver = Driver()
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    print(f"{'example':28} {'result':6} {'max rel err':>11} {'kernels':>7} "
          f"{'qimeng ms':>10} {'torch ms':>9}")
    failures = 0
    for name in names:
        try:
            ok, err, ms, torch_ms, n = run_example(driver, directory, name)
            status = "PASS" if ok else "FAIL"
            failures += not ok
            print(f"{name:28} {status:6} {err:11.2e} {n:7d} {ms:10.4f} {torch_ms:9.4f}")
        except Exception as e:  # report and go on with the next example
            failures += 1
            print(f"{name:28} ERROR  {e}")
        sys.stdout.flush()
    print(f"{len(names) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
