#!/usr/bin/env python3
"""The 16-bit GEMM level: QiMeng's bf16/f16 matmuls against cuBLAS.

Runs on a GPU machine with PyTorch and NumPy, with QiMeng's tools from the
GPU pack (scripts/pack.sh) or a build:

    python3 bench/gemm.py [--bin DIR] [--problems 'bf16-sq-4096,*8192*']
                          [--out gemm.json] [--runs 50] [--no-check]
                          [--tuning-db DB [--search N]]

Each problem is a matmul written the way torch-mlir writes torch.matmul on
16-bit tensors: `linalg.matmul` into a zero-filled `tensor.empty`, the
result returned (bf16 in, bf16 out unless said otherwise; a dynamic M where
the problem says so). Problems marked with a weight layout store B as a
Linear layer's weight, (n, k): `nk-transpose` as torch-mlir writes
`x @ w.T` (a linalg.transpose of the weight, then linalg.matmul),
`nk-maps` as a linalg.matmul whose indexing maps read B (n, k); cuBLAS
then multiplies by `w.t()` (its transposed-operand GEMM). For each one:
  1. compile with the default `qimeng-opt --llm-plan --lower-to-nvvm`
     (built-in planner; on sm_90 the wgmma plan);
  2. correctness against PyTorch: inputs drawn with torch.randn (rounded to
     the 16-bit type), QiMeng's result compared with the fp32 product
     (A.float() @ B.float()) within the output type's rounding:
     |got - ref| <= 2^-7 |ref| + 1e-2 rms(ref) (bf16; 2^-10 for f16);
  3. timing on those same inputs (tensor-core power, so the clock, depends
     on the data): cuBLAS (torch.matmul on the 16-bit tensors), QiMeng
     (`qimeng-run --time`), cuBLAS again; each by the protocol of
     bench/run.py (CUDA events, L2 flushed before each call, median). The
     QiMeng figure is compared with the mean of the two cuBLAS medians and
     both are reported.

Problems of input type `tf32` are f32 matmuls compiled with `--allow-tf32`
(tensor cores, 10-bit mantissas in the products) against cuBLAS with TF32
allowed (torch.backends.cuda.matmul.allow_tf32), checked like f16 (2^-10);
`f32` ones are the same matmuls without the flag against cuBLAS in full f32
(TF32 off), checked to 1e-5.

Results go to a JSON file (rewritten after each problem) and a Markdown table
on stdout.
"""
import argparse
import fnmatch
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402

# (name, M, N, K, input type, output type, dynamic M[, weight layout])
PROBLEMS = [
    ("bf16-sq-4096", 4096, 4096, 4096, "bf16", "bf16", False),
    ("bf16-sq-8192", 8192, 8192, 8192, "bf16", "bf16", False),
    ("f16-sq-4096", 4096, 4096, 4096, "f16", "f16", False),
    ("f16-sq-8192", 8192, 8192, 8192, "f16", "f16", False),
    # Irregular: no size a multiple of the 128 x 256 x 64 tile.
    ("bf16-irregular-3000x5000x4000", 3000, 5000, 4000, "bf16", "bf16", False),
    ("bf16-irregular-1000x1544x1000-dynM", 1000, 1544, 1000, "bf16", "bf16",
     True),
    # Linear layers of Llama-2-7B (4096 tokens): MLP up and down, attention
    # output projection; the batch of tokens dynamic as torch-mlir exports
    # it.
    ("bf16-llama7b-mlp-up", 4096, 11008, 4096, "bf16", "bf16", True),
    ("bf16-llama7b-mlp-down", 4096, 4096, 11008, "bf16", "bf16", True),
    ("bf16-llama7b-attn-out-f32", 4096, 4096, 4096, "bf16", "f32", True),
    # B stored (n, k), as nn.Linear keeps its weight.
    ("bf16-linear-nk-4096", 4096, 4096, 4096, "bf16", "bf16", True,
     "nk-transpose"),
    ("bf16-sq-8192-nk", 8192, 8192, 8192, "bf16", "bf16", False, "nk-maps"),
    ("f16-sq-4096-nk", 4096, 4096, 4096, "f16", "f16", False, "nk-maps"),
    ("bf16-llama7b-mlp-up-nk", 4096, 11008, 4096, "bf16", "bf16", True,
     "nk-transpose"),
    ("bf16-irregular-3000x5000x4000-nk", 3000, 5000, 4000, "bf16", "bf16",
     False, "nk-maps"),
    ("bf16-linear-nk-97x4096x4096", 97, 4096, 4096, "bf16", "f32", True,
     "nk-transpose"),
    # An output size off the multiple of 8 (TMA needs only K's).
    ("bf16-linear-nk-2048x1023x4096", 2048, 1023, 4096, "bf16", "bf16", True,
     "nk-transpose"),
    # Few output tiles and a long K, static M (a decode step exported with
    # static shapes): K split into parts.
    ("bf16-decode-nk-97x4096x4096", 97, 4096, 4096, "bf16", "bf16", False,
     "nk-transpose"),
    ("bf16-decode-nk-1x4096x4096", 1, 4096, 4096, "bf16", "bf16", False,
     "nk-transpose"),
    ("bf16-decode-kn-1x4096x4096", 1, 4096, 4096, "bf16", "bf16", False),
    ("f16-few-tiles-nk-384x500x4096", 384, 500, 4096, "f16", "f16", False,
     "nk-maps"),
    ("bf16-small-out-256x384x8192", 256, 384, 8192, "bf16", "bf16", False),
    # The same few tiles with M dynamic (a batch of rows): versions on M,
    # the split chosen at run time.
    ("f16-few-tiles-nk-384x500x4096-dynM", 384, 500, 4096, "f16", "f16", True,
     "nk-maps"),
    # f32 on tensor cores as tf32 (--allow-tf32; sm_80's mma.sync plan on
    # both targets), each beside its f32 twin (the SIMT plan, TF32 off).
    ("tf32-sq-2048", 2048, 2048, 2048, "tf32", "f32", False),
    ("f32-sq-2048", 2048, 2048, 2048, "f32", "f32", False),
    ("tf32-sq-4096", 4096, 4096, 4096, "tf32", "f32", False),
    ("f32-sq-4096", 4096, 4096, 4096, "f32", "f32", False),
    ("tf32-irregular-1000x1544x1000", 1000, 1544, 1000, "tf32", "f32", False),
    ("f32-irregular-1000x1544x1000", 1000, 1544, 1000, "f32", "f32", False),
]
# Fused: y = gelu_tanh(x @ w + b), bf16 throughout (nn.Linear + nn.GELU as
# torch-mlir writes them on bf16 tensors; the file is
# examples/linear_bf16_bias_gelu.mlir with these sizes), against eager
# PyTorch and torch.compile of the same function. (name, M, N, K)
FUSED = [
    ("bf16-linear-bias-gelu-4096x4096x1024", 4096, 4096, 1024),
    ("bf16-linear-bias-gelu-8192x11008x4096", 8192, 11008, 4096),
    # y = relu(x @ w + b) in f32 as tf32 (--allow-tf32; the mma.sync plan
    # with the fill in its accumulators and bias + ReLU in its epilogue),
    # against PyTorch with TF32 on. Static sizes (a dynamic M takes the SIMT
    # plan: its B is shared by the M tiles), the result returned, as
    # torch-mlir writes it.
    ("tf32-linear-bias-relu-4096x4096x1024", 4096, 4096, 1024),
]

MLIR_TYPES = {"bf16": "bf16", "f16": "f16", "f32": "f32", "tf32": "f32"}


def write_problem(path, m, n, k, tin, tout, dynamic, layout="kn"):
    tin = MLIR_TYPES[tin]
    rows = "?" if dynamic else str(m)
    a = "tensor<%sx%dx%s>" % (rows, k, tin)
    b = "tensor<%dx%dx%s>" % (k, n, tin)
    c = "tensor<%sx%dx%s>" % (rows, n, tout)
    if layout != "kn":
        write_nk_problem(path, a, "tensor<%dx%dx%s>" % (n, k, tin), b, c,
                         dynamic, tout, layout)
        return
    empty = ("%%c0 = arith.constant 0 : index\n"
             "  %%m = tensor.dim %%A, %%c0 : %s\n"
             "  %%empty = tensor.empty(%%m) : %s\n" % (a, c)) if dynamic \
        else "%%empty = tensor.empty() : %s\n" % c
    with open(path, "w") as f:
        f.write("""func.func @gemm(%%A: %(a)s, %%B: %(b)s) -> %(c)s {
  %(empty)s  %%zero = arith.constant 0.0 : %(tout)s
  %%acc = linalg.fill ins(%%zero : %(tout)s) outs(%%empty : %(c)s) -> %(c)s
  %%r = linalg.matmul ins(%%A, %%B : %(a)s, %(b)s) outs(%%acc : %(c)s) -> %(c)s
  return %%r : %(c)s
}
""" % {"a": a, "b": b, "c": c, "empty": empty, "tout": tout})


def write_nk_problem(path, a, w, b, c, dynamic, tout, layout):
    """A matmul by a weight `w` stored (n, k): through a linalg.transpose
    into `b`'s (k, n) (nk-transpose) or read (n, k) by the maps (nk-maps)."""
    empty = ("%%c0 = arith.constant 0 : index\n"
             "  %%m = tensor.dim %%A, %%c0 : %s\n"
             "  %%empty = tensor.empty(%%m) : %s\n" % (a, c)) if dynamic \
        else "%%empty = tensor.empty() : %s\n" % c
    if layout == "nk-transpose":
        product = """%%te = tensor.empty() : %(b)s
  %%wt = linalg.transpose ins(%%W : %(w)s) outs(%%te : %(b)s) permutation = [1, 0]
  %%r = linalg.matmul ins(%%A, %%wt : %(a)s, %(b)s) outs(%%acc : %(c)s) -> %(c)s"""
    else:
        product = """%%r = linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%%A, %%W : %(a)s, %(w)s) outs(%%acc : %(c)s) -> %(c)s"""
    fields = {"a": a, "w": w, "b": b, "c": c, "empty": empty, "tout": tout}
    with open(path, "w") as f:
        f.write(("""func.func @gemm(%%A: %(a)s, %%W: %(w)s) -> %(c)s {
  %(empty)s  %%zero = arith.constant 0.0 : %(tout)s
  %%acc = linalg.fill ins(%%zero : %(tout)s) outs(%%empty : %(c)s) -> %(c)s
  """ + product + """
  return %%r : %(c)s
}
""") % fields)


def compare(entry, out_dir, ref, rel, numpy, torch):
    """Whether QiMeng's result0.npy in `out_dir` is within rel |ref| +
    1e-2 rms(ref) of `ref` everywhere (and has no NaN); records the largest
    error over rms(ref), and the first wrong element, in `entry`."""
    got = torch.from_numpy(numpy.load(os.path.join(out_dir, "result0.npy")))
    scale = ref.pow(2).mean().sqrt().item()
    diff = (got.float() - ref).abs()
    bad = (diff > rel * ref.abs() + 1e-2 * scale) | torch.isnan(got)
    entry["max_err_over_rms"] = diff.max().item() / scale
    entry["correct"] = not bool(bad.any())
    if not entry["correct"]:
        at = tuple(bad.nonzero()[0].tolist())
        entry["error"] = "wrong at %s: got %g, expected %g" % (
            at, got[at].item(), ref[at].item())
    return entry["correct"]


def bench(problem, tools, args, numpy, torch):
    name, m, n, k, tin, tout, dynamic = problem[:7]
    layout = problem[7] if len(problem) > 7 else "kn"
    entry = {"name": name, "m": m, "n": n, "k": k, "input": tin,
             "output": tout, "dynamic_m": dynamic, "flops": 2 * m * n * k,
             "weight_layout": layout}
    work = tempfile.mkdtemp(prefix="qimeng-gemm-")
    source = os.path.join(work, "gemm.mlir")
    write_problem(source, m, n, k, tin, tout, dynamic, layout)
    compiled = os.path.join(work, "compiled.mlir")
    report = os.path.join(work, "compile.json")
    tuning = ["--tuning-db=" + (args.tuning_db or "off")]
    if args.search:
        tuning += ["--qimeng-search=%d" % args.search]
    if tin == "tf32":
        tuning += ["--allow-tf32"]
    code, _, err, seconds = harness.run(
        [tools["qimeng-opt"], source, "--llm-plan", "--lower-to-nvvm",
         "--qimeng-report=" + report, "-o", compiled] + tuning, 900)
    entry["compile_s"] = round(seconds, 2)
    if code != 0:
        entry["error"] = "compile: " + harness.last_line(err)
        return entry
    try:
        with open(report) as f:
            kernel = json.load(f)["kernels"]["gemm"]
        entry["plan"] = kernel.get("plan")
        if "tuning" in kernel:
            entry["tuning"] = kernel["tuning"]
    except (OSError, ValueError, KeyError):
        pass
    dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
             "f32": torch.float32, "tf32": torch.float32}[tin]
    gen = torch.Generator().manual_seed(1)
    a = torch.randn(m, k, generator=gen).to(dtype)
    b = torch.randn(k, n, generator=gen).to(dtype)
    # A (n, k) weight is passed as stored; b stays its (k, n) view.
    given = b.t().contiguous() if layout != "kn" else b
    paths = []
    for i, t in enumerate((a, given)):
        path = os.path.join(work, "in%d.npy" % i)
        # bf16 travels as float32 (NumPy has no bf16), f16 and f32 as
        # themselves.
        numpy.save(path, t.numpy() if tin == "f16" else t.float().numpy())
        paths.append("--input=%d=%s" % (i, path))
    ga, gw = a.cuda(), given.cuda()
    gb = gw.t() if layout != "kn" else gw
    if args.check:
        out_dir = os.path.join(work, "out")
        code, _, err, _ = harness.run(
            [tools["qimeng-run"], compiled, "--poison", "--output-dir=" + out_dir]
            + paths, 900)
        if code != 0:
            entry["error"] = "run: " + harness.last_line(err)
            return entry
        rel = {"bf16": 2.0 ** -7, "f16": 2.0 ** -10, "f32": 1e-5}[tout]
        if tin == "tf32":
            rel = 2.0 ** -10
        # The reference in full f32 (harness.torch_modules turned TF32 off).
        if not compare(entry, out_dir, (ga.float() @ gb.float()).cpu(), rel,
                       numpy, torch):
            return entry
    # cuBLAS in tf32 for tf32 problems, in f32 (TF32 off) for the others.
    torch.backends.cuda.matmul.allow_tf32 = tin == "tf32"
    entry["cublas_tf32"] = tin == "tf32"
    try:
        return time_both(entry, ga, gb, tout, paths, compiled, work, tools,
                         args, torch)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def time_both(entry, ga, gb, tout, paths, compiled, work, tools, args, torch):
    """Times cuBLAS, QiMeng's compiled module, then cuBLAS again, on the
    same operands; fills `entry` with the medians and their ratio."""
    # cuBLAS on the same operands; an f32 result through its out_dtype
    # (bf16 in, f32 out) where this PyTorch has it.
    matmul = torch.matmul
    entry["cublas_form"] = "torch.matmul"
    if tout == "f32" and ga.dtype != torch.float32:
        try:
            torch.mm(ga[:8, :8], gb[:8, :8], out_dtype=torch.float32)
            matmul = lambda x, y: torch.mm(x, y, out_dtype=torch.float32)  # noqa: E731
            entry["cublas_form"] = "torch.mm(out_dtype=float32)"
        except (TypeError, RuntimeError):
            entry["cublas_form"] = "torch.matmul (16-bit result)"
    cublas = [harness.time_torch(matmul, [ga, gb], args.warmup, args.runs,
                                 torch)]
    timing_report = os.path.join(work, "time.json")
    code, _, err, _ = harness.run(
        [tools["qimeng-run"], compiled, "--time", "--warmup=%d" % args.warmup,
         "--runs=%d" % args.runs, "--report=" + timing_report] + paths, 900)
    if code != 0:
        entry["error"] = "time: " + harness.last_line(err)
        return entry
    with open(timing_report) as f:
        timing = json.load(f)["timing"]
    cublas.append(harness.time_torch(matmul, [ga, gb], args.warmup, args.runs,
                                     torch))
    entry["qimeng_ms"] = timing["median_ms"]
    entry["cublas_ms"] = [c["median_ms"] for c in cublas]
    cublas_ms = sum(entry["cublas_ms"]) / len(cublas)
    entry["qimeng_tflops"] = entry["flops"] / (timing["median_ms"] * 1e9)
    entry["cublas_tflops"] = [entry["flops"] / (t * 1e9)
                              for t in entry["cublas_ms"]]
    entry["fraction_of_cublas"] = cublas_ms / timing["median_ms"]
    return entry


def write_fused_tf32(path, m, n, k):
    with open(path, "w") as f:
        f.write("""func.func @linear(%%x: tensor<%(m)dx%(k)dxf32>, %%w: tensor<%(k)dx%(n)dxf32>,
                  %%b: tensor<%(n)dxf32>) -> tensor<%(m)dx%(n)dxf32> {
  %%zero = arith.constant 0.0 : f32
  %%e = tensor.empty() : tensor<%(m)dx%(n)dxf32>
  %%acc = linalg.fill ins(%%zero : f32) outs(%%e : tensor<%(m)dx%(n)dxf32>) -> tensor<%(m)dx%(n)dxf32>
  %%mm = linalg.matmul ins(%%x, %%w : tensor<%(m)dx%(k)dxf32>, tensor<%(k)dx%(n)dxf32>)
                      outs(%%acc : tensor<%(m)dx%(n)dxf32>) -> tensor<%(m)dx%(n)dxf32>
  %%y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%%mm, %%b : tensor<%(m)dx%(n)dxf32>, tensor<%(n)dxf32>) outs(%%e : tensor<%(m)dx%(n)dxf32>) {
  ^bb0(%%v: f32, %%bias: f32, %%o: f32):
    %%s = arith.addf %%v, %%bias : f32
    %%r = arith.maximumf %%s, %%zero : f32
    linalg.yield %%r : f32
  } -> tensor<%(m)dx%(n)dxf32>
  return %%y : tensor<%(m)dx%(n)dxf32>
}
""" % {"m": m, "n": n, "k": k})


def write_fused(path, n, k):
    with open(os.path.join(HERE, "..", "examples",
                           "linear_bf16_bias_gelu.mlir")) as f:
        text = f.read()
    # The example's sizes: K = 1024, N = 4096 (in its types only).
    text = text.replace("1024x", "@K@x").replace("x4096x", "x@N@x")
    text = text.replace("<4096x", "<@N@x")
    text = text.replace("@K@", str(k)).replace("@N@", str(n))
    with open(path, "w") as f:
        f.write(text)


def bench_fused(problem, tools, args, numpy, torch):
    name, m, n, k = problem
    tf32 = name.startswith("tf32")
    entry = {"name": name, "m": m, "n": n, "k": k,
             "input": "tf32" if tf32 else "bf16",
             "output": "f32" if tf32 else "bf16", "dynamic_m": not tf32,
             "fused": "bias+relu" if tf32 else "bias+gelu_tanh",
             "flops": 2 * m * n * k}
    work = tempfile.mkdtemp(prefix="qimeng-gemm-")
    source = os.path.join(work, "fused.mlir")
    if tf32:
        write_fused_tf32(source, m, n, k)
    else:
        write_fused(source, n, k)
    shape = [] if tf32 else ["--shape=0=%d" % m]
    compiled = os.path.join(work, "compiled.mlir")
    code, _, err, seconds = harness.run(
        [tools["qimeng-opt"], source, "--llm-plan", "--lower-to-nvvm",
         "--tuning-db=off", "-o", compiled]
        + (["--allow-tf32"] if tf32 else []), 900)
    entry["compile_s"] = round(seconds, 2)
    if code != 0:
        entry["error"] = "compile: " + harness.last_line(err)
        return entry
    entry["kernels"] = open(compiled).read().count("gpu.launch_func")
    dtype = torch.float32 if tf32 else torch.bfloat16
    gen = torch.Generator().manual_seed(2)
    x = torch.randn(m, k, generator=gen).to(dtype)
    w = (torch.randn(k, n, generator=gen) / k ** 0.5).to(dtype)
    b = torch.randn(n, generator=gen).to(dtype)
    paths = []
    for i, t in enumerate((x, w, b)):
        path = os.path.join(work, "in%d.npy" % i)
        numpy.save(path, t.float().numpy())
        paths.append("--input=%d=%s" % (i, path))
    gx, gw, gb = x.cuda(), w.cuda(), b.cuda()

    def fn(a, wt, bias):
        if tf32:
            return torch.relu(a @ wt + bias)
        return torch.nn.functional.gelu(a @ wt + bias, approximate="tanh")

    if args.check:
        out_dir = os.path.join(work, "out")
        code, _, err, _ = harness.run(
            [tools["qimeng-run"], compiled, "--poison",
             "--output-dir=" + out_dir] + shape + paths, 900)
        if code != 0:
            entry["error"] = "run: " + harness.last_line(err)
            return entry
        # The matmul result is rounded to bf16 before bias and GELU; tf32
        # keeps 10 mantissa bits of each product's operands. The reference
        # in full f32 (harness.torch_modules turned TF32 off).
        if not compare(entry, out_dir, fn(gx.float(), gw.float(),
                                          gb.float()).cpu(),
                       2.0 ** (-10 if tf32 else -6), numpy, torch):
            return entry
    # PyTorch with TF32 on against QiMeng's tf32 kernel.
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        compiled_fn = torch.compile(fn)
        compiled_fn(gx, gw, gb)
        eager = harness.time_torch(fn, [gx, gw, gb], args.warmup, args.runs,
                                   torch)
        inductor = harness.time_torch(compiled_fn, [gx, gw, gb], args.warmup,
                                      args.runs, torch)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False
    timing_report = os.path.join(work, "time.json")
    code, _, err, _ = harness.run(
        [tools["qimeng-run"], compiled, "--time",
         "--warmup=%d" % args.warmup, "--runs=%d" % args.runs,
         "--report=" + timing_report] + shape + paths, 900)
    if code != 0:
        entry["error"] = "time: " + harness.last_line(err)
        return entry
    with open(timing_report) as f:
        entry["qimeng_ms"] = json.load(f)["timing"]["median_ms"]
    entry["eager_ms"] = eager["median_ms"]
    entry["compile_ms"] = inductor["median_ms"]
    entry["qimeng_tflops"] = entry["flops"] / (entry["qimeng_ms"] * 1e9)
    entry["speedup_vs_compile"] = inductor["median_ms"] / entry["qimeng_ms"]
    entry["speedup_vs_eager"] = eager["median_ms"] / entry["qimeng_ms"]
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="")
    ap.add_argument("--problems", default="*")
    ap.add_argument("--out", default="gemm-results.json")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--no-check", dest="check", action="store_false")
    ap.add_argument("--tuning-db", default="",
                    help="compile with this tuning database (default: off)")
    ap.add_argument("--search", type=int, default=0,
                    help="search N candidate plans per problem the database "
                         "has no plan for (timed on this GPU)")
    args = ap.parse_args()
    tools = {t: harness.find_tool(t, args.bin)
             for t in ("qimeng-opt", "qimeng-run")}
    numpy, torch = harness.torch_modules()
    patterns = args.problems.split(",")
    results = {"environment": harness.environment(torch, tools),
               "problems": []}
    for problem in PROBLEMS:
        if not any(fnmatch.fnmatch(problem[0], p) for p in patterns):
            continue
        entry = bench(problem, tools, args, numpy, torch)
        results["problems"].append(entry)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
        print(json.dumps(entry), flush=True)
    for problem in FUSED:
        if not any(fnmatch.fnmatch(problem[0], p) for p in patterns):
            continue
        entry = bench_fused(problem, tools, args, numpy, torch)
        results.setdefault("fused", []).append(entry)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
        print(json.dumps(entry), flush=True)
    print("\n| problem | M x N x K | in -> out | correct | QiMeng ms | "
          "TFLOP/s | cuBLAS ms (before, after) | cuBLAS TFLOP/s | "
          "% of cuBLAS |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in results["problems"]:
        if "qimeng_ms" not in e:
            print("| %s | %dx%dx%d | %s -> %s | %s | - | - | - | - | - |" % (
                e["name"], e["m"], e["n"], e["k"], e["input"], e["output"],
                e.get("error", "?")))
            continue
        print("| %s | %dx%dx%d%s | %s -> %s | %s | %.3f | %.0f | %.3f, %.3f | "
              "%.0f-%.0f | %.0f %% |" % (
                  e["name"], e["m"], e["n"], e["k"],
                  " (M dynamic)" if e["dynamic_m"] else "", e["input"],
                  e["output"], "yes" if e.get("correct") else "not checked",
                  e["qimeng_ms"], e["qimeng_tflops"], e["cublas_ms"][0],
                  e["cublas_ms"][1], min(e["cublas_tflops"]),
                  max(e["cublas_tflops"]), 100 * e["fraction_of_cublas"]))
    print("\n| fused problem | M x N x K | kernels | correct | QiMeng ms | "
          "eager ms | torch.compile ms | vs eager | vs compile |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in results.get("fused", []):
        if "qimeng_ms" not in e:
            print("| %s | %dx%dx%d | - | %s | - | - | - | - | - |" % (
                e["name"], e["m"], e["n"], e["k"], e.get("error", "?")))
            continue
        print("| %s | %dx%dx%d | %d | %s | %.3f | %.3f | %.3f | %.2fx | "
              "%.2fx |" % (e["name"], e["m"], e["n"], e["k"], e["kernels"],
                           "yes" if e.get("correct") else "not checked",
                           e["qimeng_ms"], e["eager_ms"], e["compile_ms"],
                           e["speedup_vs_eager"], e["speedup_vs_compile"]))


if __name__ == "__main__":
    main()

