#!/usr/bin/env python3
"""Compiles, checks and times the generated corpus (generate.py) against
PyTorch.

Steps (each writes a JSON file into --work, the next reads it):
  compile  qimeng-opt --llm-plan --lower-to-nvvm on every form of every
           kernel, in parallel; each file is compiled, rejected with a
           diagnostic (an error with a location, exit code 1), or a crash
           (a signal, an LLVM fatal error, a time-out): compile.json.
           Needs no GPU.
  check    on the GPU: seeded inputs drawn with torch, every compiled form
           run by qimeng-run on them (.npy in and out), its outputs compared
           with the PyTorch expression computed in float64 (integers and
           booleans exactly): check.json.
  verify   on the GPU: every compiled form against its source by QiMeng's
           own verifier (qimeng-run --verify: fresh seeds, poisoned
           outputs, the small-input trial): pass/fail with the margin of
           each (how close a correct kernel comes to being rejected):
           verify.json.
  time     on the GPU, one call at a time: QiMeng (qimeng-run --time, the
           returned form and the static twin of a dynamic kernel), PyTorch
           eager and, for every --compile-every'th kernel, torch.compile;
           CUDA events, L2 flushed before every call: time.json.
  report   the tables (family x form: correct; geomean speed-up against
           eager and torch.compile; the slowest kernels) as Markdown, and
           summary.json.

Usage:
  run.py compile --corpus DIR --work DIR --opt qimeng-opt [-j N]
  run.py check   --corpus DIR --work DIR --run qimeng-run [-j N]
  run.py verify  --corpus DIR --work DIR --run qimeng-run [-j N]
  run.py time    --corpus DIR --work DIR --run qimeng-run
  run.py report  --corpus DIR --work DIR [--markdown FILE]
"""
import argparse
import concurrent.futures
import functools
import json
import math
import os
import statistics
import subprocess
import sys
import time

FORMS = ("returned", "outarg")


def load(path, default=None):
    if default is not None and not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def last_error(text):
    """The first line of a diagnostic, or the last line of the output."""
    lines = [l for l in text.splitlines() if l.strip()]
    for line in lines:
        if "error:" in line:
            return line.strip()[:400]
    return lines[-1].strip()[:400] if lines else ""


def classify(code, err, timed_out):
    """compiled | rejected (a diagnostic) | crash."""
    if timed_out:
        return "crash", "time-out"
    if code == 0:
        return "compiled", ""
    crashed = (code < 0 or code > 1 or "PLEASE submit a bug report" in err or
               "LLVM ERROR" in err or "Stack dump" in err)
    if crashed:
        return "crash", last_error(err)
    # A diagnostic names a place: file:line:col: error: ...
    if ": error:" in err:
        return "rejected", last_error(err)
    return "crash", "exit 1 without a diagnostic: " + last_error(err)


# --- compile --------------------------------------------------------------------

def compile_one(opt, source, output, timeout, lower="--lower-to-nvvm"):
    start = time.time()
    try:
        proc = subprocess.run([opt, source, "--llm-plan", lower,
                               "--tuning-db=off", "-o", output],
                              capture_output=True, text=True, timeout=timeout)
        code, err, timed_out = proc.returncode, proc.stderr, False
    except subprocess.TimeoutExpired as e:
        code, err, timed_out = None, (e.stderr or b"").decode(errors="replace") \
            if isinstance(e.stderr, bytes) else (e.stderr or ""), True
    status, why = classify(code, err, timed_out)
    if status == "compiled" and not os.path.exists(output):
        status, why = "crash", "exit 0 without an output file"
    if status != "compiled" and os.path.exists(output):
        status, why = "crash", "an output file was left after a failure: " + why
    return {"status": status, "error": why,
            "seconds": round(time.time() - start, 3)}


def cmd_compile(args):
    manifest = load(os.path.join(args.corpus, "manifest.json"))
    out_dir = os.path.join(args.work, "compiled")
    os.makedirs(out_dir, exist_ok=True)
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for k in manifest["kernels"]:
            for form, path in k["files"].items():
                source = os.path.join(args.corpus, path)
                output = os.path.join(out_dir, path)
                if os.path.exists(output):
                    os.remove(output)
                jobs[path] = pool.submit(
                    compile_one, args.opt, source, output, args.timeout,
                    "--lower-to-nvvm=format=%s" % args.format)
        results = {path: job.result() for path, job in jobs.items()}
    save(os.path.join(args.work, "compile.json"), results)
    counts = {}
    for r in results.values():
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("compile: %s" % ", ".join("%d %s" % (n, s)
                                    for s, n in sorted(counts.items())))
    for path, r in sorted(results.items()):
        if r["status"] != "compiled":
            print("  %-8s %s: %s" % (r["status"], path, r["error"]))
    return 1 if counts.get("crash") else 0


# --- check ----------------------------------------------------------------------

# Unit roundoff of each floating type; the tolerance of a kernel grows with
# the square root of its reduction length (independent rounding errors).
EPS = {"float64": 2.2e-16, "float32": 1.2e-7, "float16": 9.8e-4,
       "bfloat16": 7.8e-3}


def tolerance(kernel, dtype):
    """Allowed error relative to |expected| + rms(expected): the output's
    rounding, plus the reduction's (in the type it accumulates in), which
    grows as the square root of its length."""
    if dtype == "float64":
        return 1e-9
    acc = kernel.get("accumulate") or dtype
    floor = 2e-5 if dtype == "float32" else 4 * EPS[dtype]
    return floor + 4 * EPS[acc] * math.sqrt(max(1, kernel["reduction"]))


def make_inputs(kernel, seed, torch):
    gen = torch.Generator().manual_seed(seed)
    tensors = []
    for spec in kernel["inputs"]:
        dtype = getattr(torch, spec["dtype"])
        shape = spec["shape"]
        if dtype == torch.bool:
            t = torch.randint(0, 2, shape, generator=gen).bool()
        elif dtype.is_floating_point:
            t = torch.randn(shape, generator=gen, dtype=torch.float32)
            if kernel["input_kind"] == "positive":
                t = t.abs() + 0.5
            elif kernel["input_kind"] == "scaled":
                t = t * 100
            t = t.to(dtype)
        else:
            info = torch.iinfo(dtype)
            low, high = (-8, 8) if info.bits >= 8 else (0, 2)
            t = torch.randint(low, high, shape, generator=gen, dtype=dtype)
        tensors.append(t)
    return tensors


def to_numpy(t, numpy):
    # .npy has no bfloat16: QiMeng reads bf16 arguments from float32 files.
    import torch
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy()


def from_numpy(a, dtype, torch):
    t = torch.from_numpy(a)
    return t.to(getattr(torch, dtype)) if dtype == "bfloat16" else t


def compare(kernel, got, expected, spec, torch):
    """(ok, worst relative error, reason)."""
    if tuple(got.shape) != tuple(expected.shape):
        return False, None, "shape %s, expected %s" % (
            tuple(got.shape), tuple(expected.shape))
    expected = expected.cpu()
    if not expected.is_floating_point():
        bad = (got.long() != expected.long()).nonzero()
        if len(bad):
            i = tuple(bad[0].tolist())
            return False, None, "at %s got %s, expected %s" % (
                i, got[i].item(), expected[i].item())
        return True, 0.0, ""
    g, e = got.double(), expected.double().cpu()
    if g.numel() == 0:
        return True, 0.0, ""
    if torch.isnan(g).any() and not torch.isnan(e).any():
        i = tuple(torch.isnan(g).nonzero()[0].tolist())
        return False, None, "NaN at %s (not written?)" % (i,)
    scale = max(e.pow(2).mean().sqrt().item(), 1e-30)
    err = (g - e).abs()
    rel = err / (e.abs() + scale)
    worst = rel.max().item()
    tol = tolerance(kernel, spec["dtype"])
    if worst > tol:
        i = tuple((rel > tol).nonzero()[0].tolist())
        return False, worst, "at %s got %.6g, expected %.6g (tolerance %.1e)" % (
            i, g[i].item(), e[i].item(), tol)
    return True, worst, ""


def reference(kernel, inputs, torch):
    """The PyTorch expression on the GPU, floating point widened to float64
    (for an output of a narrow type: computed in float64, compared after)."""
    env = {"torch": torch}
    device = "cuda" if torch.cuda.is_available() else "cpu"
    for i, t in enumerate(inputs):
        t = t.to(device)
        env["x%d" % i] = t.double() if t.is_floating_point() else t
    with torch.no_grad():
        out = eval(kernel["reference"], env)  # generated by generate.py
    return list(out) if isinstance(out, (tuple, list)) else [out]


def run_tool(cmd, timeout):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
        return proc.returncode, proc.stderr
    except subprocess.TimeoutExpired:
        return None, "time-out after %d s" % timeout


def check_form(kernel, form, path, args, numpy, torch):
    work = os.path.join(args.work, "check", kernel["name"], form)
    os.makedirs(work, exist_ok=True)
    inputs = make_inputs(kernel, args.seed, torch)
    # Results the function allocates start poisoned (NaN, -1): what a kernel
    # leaves unwritten shows.
    cmd = [args.run, path, "--entry=" + kernel["entry"], "--poison",
           "--output-dir=" + work]
    for i, t in enumerate(inputs):
        npy = os.path.join(work, "in%d.npy" % i)
        numpy.save(npy, to_numpy(t, numpy))
        cmd.append("--input=%d=%s" % (i, npy))
    code, err = run_tool(cmd, args.timeout)
    if code != 0:
        return {"status": "error", "error": last_error(err)}
    expected = reference(kernel, inputs, torch)
    worst = 0.0
    for i, spec in enumerate(kernel["outputs"]):
        npy = os.path.join(work, "result%d.npy" % i)
        if not os.path.exists(npy):
            return {"status": "error", "error": "no result%d.npy" % i}
        got = from_numpy(numpy.load(npy), spec["dtype"], torch)
        want = expected[i].to(getattr(torch, spec["dtype"])) \
            if not expected[i].is_floating_point() else expected[i]
        ok, rel, why = compare(kernel, got, want, spec, torch)
        if not ok:
            return {"status": "wrong", "error": "result%d: %s" % (i, why)}
        worst = max(worst, rel or 0.0)
    return {"status": "correct", "worst_rel": worst}


def each_form(args):
    """(kernel, form, compiled file, its compile.json entry) for every form
    of every kernel of the corpus."""
    manifest = load(os.path.join(args.corpus, "manifest.json"))
    compiled = load(os.path.join(args.work, "compile.json"))
    for k in manifest["kernels"]:
        for form in FORMS + ("static",):
            path = k["files"].get(form)
            if path:
                yield (k, form, os.path.join(args.work, "compiled", path),
                       compiled.get(path, {"status": "missing"}))


def cmd_check(args):
    import numpy
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    results = {}
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for k, form, path, c in each_form(args):
            if c["status"] != "compiled":
                results.setdefault(k["name"], {})[form] = {
                    "status": c["status"], "error": c.get("error", "")}
                continue
            jobs[(k["name"], form)] = pool.submit(
                check_form, k, form, path, args, numpy, torch)
        for (name, form), job in jobs.items():
            try:
                results.setdefault(name, {})[form] = job.result()
            except Exception as e:  # a broken reference is reported, not fatal
                results.setdefault(name, {})[form] = {
                    "status": "error", "error": "checker: %r" % (e,)}
    save(os.path.join(args.work, "check.json"), results)
    counts = {}
    for forms in results.values():
        for r in forms.values():
            counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("check: %s" % ", ".join("%d %s" % (n, s)
                                  for s, n in sorted(counts.items())))
    for name, forms in sorted(results.items()):
        for form, r in sorted(forms.items()):
            if r["status"] not in ("correct", "rejected"):
                print("  %-8s %s.%s: %s" % (r["status"], name, form,
                                            r.get("error", "")))
    return 0


# --- verify ---------------------------------------------------------------------

def shape_flags(kernel, form):
    """--shape flags for the dynamic sizes of a form's arguments (inputs,
    then the outputs of the outarg form)."""
    if form == "static" or not kernel.get("dynamic"):
        return []
    specs = list(kernel["inputs"])
    if form == "outarg":
        specs += kernel["outputs"]
    flags = []
    for i, spec in enumerate(specs):
        dims = spec.get("dynamic") or []
        if dims:
            flags.append("--shape=%d=%s" % (
                i, "x".join(str(spec["shape"][d]) for d in dims)))
    return flags


def verify_form(kernel, form, path, args):
    work = os.path.join(args.work, "verify", kernel["name"])
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, form + ".json")
    source = os.path.join(args.corpus, kernel["files"][form])
    cmd = [args.run, path, "--verify", "--reference=" + source,
           "--entry=" + kernel["entry"], "--report=" + report] + \
        shape_flags(kernel, form)
    code, err = run_tool(cmd, args.timeout)
    if not os.path.exists(report):
        return {"status": "error", "error": last_error(err)}
    r = load(report)
    verified = r.get("verify", {})
    margins = [o.get("margin") for t in verified.get("trials", [])
               for o in t.get("outputs", [])]
    finite = [m for m in margins if isinstance(m, (int, float))]
    return {"status": r.get("status", "error"),
            "margin": max(finite) if len(finite) == len(margins) and finite
            else (None if margins else 0.0),
            "seed": verified.get("seed"),
            "error": "" if code == 0 else last_error(err)}


def cmd_verify(args):
    results = {}
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for k, form, path, c in each_form(args):
            if c["status"] == "compiled":
                jobs[(k["name"], form)] = pool.submit(verify_form, k, form,
                                                      path, args)
        for (name, form), job in jobs.items():
            results.setdefault(name, {})[form] = job.result()
    save(os.path.join(args.work, "verify.json"), results)
    counts = {}
    margins = []
    for forms in results.values():
        for r in forms.values():
            counts[r["status"]] = counts.get(r["status"], 0) + 1
            if r["status"] == "pass" and r["margin"] is not None:
                margins.append(r["margin"])
    print("verify: %s" % ", ".join("%d %s" % (n, s)
                                   for s, n in sorted(counts.items())))
    if margins:
        print("verify: margins of the passing forms: median %.3g, max %.3g"
              % (statistics.median(margins), max(margins)))
    for name, forms in sorted(results.items()):
        for form, r in sorted(forms.items()):
            if r["status"] != "pass":
                print("  %-8s %s.%s: %s" % (r["status"], name, form,
                                            r.get("error", "")))
    return 0


# --- time -----------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _bench_run():
    """bench/run.py, the benchmark's harness, as a module (its timing),
    loaded once."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "run.py")
    spec = importlib.util.spec_from_file_location("qimeng_bench_run", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_torch(fn, inputs, warmup, runs, torch):
    """Median ms of one call of fn(*inputs) (CUDA events, flushed L2)."""
    return _bench_run().time_events(lambda: fn(*inputs), warmup, runs,
                                    torch)["median_ms"]


def time_torch_graph(fn, inputs, warmup, runs, torch):
    """Median ms of one replay of `fn` captured in a CUDA graph (flushed L2):
    PyTorch's GPU time without its per-call host work (Python, dynamo's
    guards), which a single timed call includes. None when the capture
    fails."""
    try:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(max(warmup, 3)):
                fn(*inputs)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn(*inputs)
    except Exception:  # capture unsupported: no figure
        torch.cuda.synchronize()
        return None
    return _bench_run().time_events(graph.replay, warmup, runs,
                                    torch)["median_ms"]


def time_qimeng(kernel, form, args):
    """Median ms of the compiled form on the check's inputs."""
    work = os.path.join(args.work, "check", kernel["name"], "returned")
    path = os.path.join(args.work, "compiled", kernel["files"][form])
    report = os.path.join(args.work, "check", kernel["name"],
                          "time-%s.json" % form)
    cmd = [args.run, path, "--entry=" + kernel["entry"], "--time",
           "--warmup=%d" % args.warmup, "--runs=%d" % args.runs,
           "--report=" + report]
    for i in range(len(kernel["inputs"])):
        cmd.append("--input=%d=%s" % (i, os.path.join(work, "in%d.npy" % i)))
    code, err = run_tool(cmd, args.timeout)
    if code != 0:
        return None, last_error(err)
    return load(report)["timing"]["median_ms"], ""


def cmd_time(args):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    manifest = load(os.path.join(args.corpus, "manifest.json"))
    checked = load(os.path.join(args.work, "check.json"))
    path = os.path.join(args.work, "time.json")
    results = load(path, {})
    for n, k in enumerate(manifest["kernels"]):
        forms = checked.get(k["name"], {})
        if forms.get("returned", {}).get("status") != "correct":
            continue
        if k["name"] in results and not args.again:
            continue
        if not k.get("eager", k["reference"]):
            continue  # nothing in PyTorch to time it against
        entry = {}
        ms, why = time_qimeng(k, "returned", args)
        entry["qimeng_ms"] = ms
        if why:
            entry["error"] = why
        if "static" in k["files"] and forms.get("static", {}).get(
                "status") == "correct":
            entry["static_ms"], _ = time_qimeng(k, "static", args)
        inputs = [t.cuda() for t in make_inputs(k, args.seed, torch)]
        env = {"torch": torch}
        fn = eval("lambda %s: %s" % (", ".join(
            "x%d" % i for i in range(len(inputs))),
            k.get("eager", k["reference"])), env)
        with torch.no_grad():
            entry["eager_ms"] = time_torch(fn, inputs, args.warmup, args.runs,
                                           torch)
            if args.compile_every and n % args.compile_every == 0:
                try:
                    torch._dynamo.reset()
                    compiled = torch.compile(fn)
                    entry["compile_ms"] = time_torch(compiled, inputs,
                                                     args.warmup, args.runs,
                                                     torch)
                    graphed = time_torch_graph(compiled, inputs, args.warmup,
                                               args.runs, torch)
                    if graphed:
                        entry["compile_graph_ms"] = graphed
                except Exception as e:  # reported, the run goes on
                    entry["compile_error"] = repr(e)[:300]
            # Eager's GPU time alone (no per-call host work), for every
            # kernel.
            graphed = time_torch_graph(fn, inputs, args.warmup, args.runs,
                                       torch)
            if graphed:
                entry["eager_graph_ms"] = graphed
        results[k["name"]] = entry
        save(path, results)
        print("%-36s qimeng %8s  eager %.4f%s%s" % (
            k["name"], "%.4f" % ms if ms else "-", entry["eager_ms"],
            "  compile %.4f" % entry["compile_ms"] if "compile_ms" in entry
            else "",
            "  compile (graph) %.4f" % entry["compile_graph_ms"]
            if "compile_graph_ms" in entry else ""), flush=True)
    return 0


# --- report ---------------------------------------------------------------------

def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def cmd_report(args):
    manifest = load(os.path.join(args.corpus, "manifest.json"))
    checked = load(os.path.join(args.work, "check.json"), {})
    timed = load(os.path.join(args.work, "time.json"), {})
    compiled = load(os.path.join(args.work, "compile.json"), {})
    families = {}
    for k in manifest["kernels"]:
        families.setdefault(k["family"], []).append(k)
    lines = ["| family | kernels | returned: correct | outarg: correct | "
             "rejected | wrong / error | vs eager (geomean) | "
             "vs eager in a CUDA graph (geomean) | "
             "vs torch.compile (geomean, n) | "
             "vs torch.compile in a CUDA graph (geomean, n) | "
             "slowest vs eager in a CUDA graph |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    summary = {"families": {}, "kernels": len(manifest["kernels"])}
    all_eager, all_compile, all_graph, dyn_ratio = [], [], [], []
    all_eager_graph = []
    crashes = sum(1 for r in compiled.values() if r["status"] == "crash")
    for family, kernels in sorted(families.items()):
        correct = {f: 0 for f in FORMS}
        rejected = bad = 0
        eager, comp, graph, eager_graph = [], [], [], []
        slowest = None
        for k in kernels:
            forms = checked.get(k["name"], {})
            for f in FORMS:
                status = forms.get(f, {}).get("status")
                correct[f] += status == "correct"
                rejected += status == "rejected"
                bad += status in ("wrong", "error", "crash")
            t = timed.get(k["name"], {})
            if t.get("qimeng_ms"):
                eager.append(t["eager_ms"] / t["qimeng_ms"])
                if t.get("compile_ms"):
                    comp.append(t["compile_ms"] / t["qimeng_ms"])
                if t.get("compile_graph_ms"):
                    graph.append(t["compile_graph_ms"] / t["qimeng_ms"])
                if t.get("eager_graph_ms"):
                    s = t["eager_graph_ms"] / t["qimeng_ms"]
                    eager_graph.append(s)
                    if slowest is None or s < slowest[0]:
                        slowest = (s, k["name"])
                if t.get("static_ms"):
                    dyn_ratio.append((k["name"], t["qimeng_ms"] / t["static_ms"]))
        all_eager += eager
        all_compile += comp
        all_graph += graph
        all_eager_graph += eager_graph
        ge, gc, gg = geomean(eager), geomean(comp), geomean(graph)
        geg = geomean(eager_graph)
        lines.append("| %s | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s |" % (
            family, len(kernels), correct["returned"], correct["outarg"],
            rejected, bad, "%.2fx" % ge if ge else "-",
            "%.2fx" % geg if geg else "-",
            "%.2fx (%d)" % (gc, len(comp)) if gc else "-",
            "%.2fx (%d)" % (gg, len(graph)) if gg else "-",
            "%.2fx %s" % slowest if slowest else "-"))
        summary["families"][family] = {
            "kernels": len(kernels), "correct": correct, "rejected": rejected,
            "wrong_or_error": bad, "geomean_vs_eager": ge,
            "geomean_vs_eager_graph": geg,
            "geomean_vs_compile": gc, "geomean_vs_compile_graph": gg,
            "timed": len(eager), "timed_compile": len(comp),
            "timed_compile_graph": len(graph)}
    ge, gc = geomean(all_eager), geomean(all_compile)
    gg = geomean(all_graph)
    summary.update({"geomean_vs_eager": ge, "geomean_vs_compile": gc,
                    "geomean_vs_compile_graph": gg,
                    "timed_compile_graph": len(all_graph),
                    "geomean_vs_eager_graph": geomean(all_eager_graph),
                    "timed_eager_graph": len(all_eager_graph),
                    "timed": len(all_eager), "compile_crashes": crashes,
                    "below_half_eager": sorted(
                        (k, round(timed[k]["eager_ms"] / timed[k]["qimeng_ms"], 3))
                        for k in timed if timed[k].get("qimeng_ms") and
                        timed[k]["eager_ms"] / timed[k]["qimeng_ms"] < 0.5),
                    # Against eager's GPU time alone (a CUDA graph replay):
                    # the fair figure (the single call includes PyTorch's
                    # host overhead).
                    "below_half_eager_graph": sorted(
                        (k, round(timed[k]["eager_graph_ms"] /
                                  timed[k]["qimeng_ms"], 3))
                        for k in timed if timed[k].get("qimeng_ms") and
                        timed[k].get("eager_graph_ms") and
                        timed[k]["eager_graph_ms"] / timed[k]["qimeng_ms"] < 0.5),
                    "dynamic_over_static": sorted(
                        (n, round(r, 3)) for n, r in dyn_ratio)})
    eg = geomean(all_eager_graph)
    lines.append("| **all** | %d | | | | | **%s** | **%s** | **%s** | **%s** | |" % (
        len(manifest["kernels"]), "%.2fx" % ge if ge else "-",
        "%.2fx" % eg if eg else "-",
        "%.2fx (%d)" % (gc, len(all_compile)) if gc else "-",
        "%.2fx (%d)" % (gg, len(all_graph)) if gg else "-"))
    if eg:
        lines.append("")
        lines.append("Against eager captured in a CUDA graph (its GPU time "
                     "alone): %.2fx over %d kernels." % (eg,
                                                         len(all_eager_graph)))
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    save(os.path.join(args.work, "summary.json"), summary)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("compile", "check", "verify", "time", "report"):
        p = sub.add_parser(name)
        p.add_argument("--corpus", required=True)
        p.add_argument("--work", required=True)
        p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
        p.add_argument("--timeout", type=int, default=300)
        p.add_argument("--seed", type=int, default=1)
        if name == "compile":
            p.add_argument("--opt", required=True)
            p.add_argument("--format", default="isa", choices=["isa", "bin"],
                           help="PTX, or cubins (ptxas; no driver JIT at "
                                "every load)")
        if name in ("check", "verify", "time"):
            p.add_argument("--run", required=True)
        if name == "time":
            p.add_argument("--warmup", type=int, default=5)
            p.add_argument("--runs", type=int, default=30)
            p.add_argument("--compile-every", type=int, default=4)
            p.add_argument("--again", action="store_true")
        if name == "report":
            p.add_argument("--markdown")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    return {"compile": cmd_compile, "check": cmd_check, "verify": cmd_verify,
            "time": cmd_time, "report": cmd_report}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
