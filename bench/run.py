#!/usr/bin/env python3
"""KernelBench-style benchmark of QiMeng against PyTorch eager and torch.compile.

Runs on a GPU machine with PyTorch and NumPy, using QiMeng's tools from the
GPU pack (scripts/pack.sh) or a build:

    python3 bench/run.py [--bin DIR] [--problems L1-08-relu,L2-*] [--quick]
                         [--out bench-results.json] [--no-compile]
                         [--tuning-db DB [--search N]] [--keep-reports DIR]

For each problem (bench/problems.py):
  1. compile with the default `qimeng-opt --llm-plan --lower-to-nvvm`
     (built-in planner and micro-coder; no LLM);
  2. correctness against PyTorch on 5 fresh random inputs (torch.randn, as
     KernelBench): QiMeng's output buffer is NaN-filled before each run, the
     reference is computed in float64 on the GPU, and every element must be
     within 1e-4 * max(1, rms(expected)) + 1e-4 * |expected| (fp32; integer
     outputs exactly); then the verifier's anti-cheat checks
     (`qimeng-run --verify`: NaN-poisoned outputs, inputs unchanged, fresh
     seeds, no constant output);
  3. timing of QiMeng (`qimeng-run --time`), torch eager and torch.compile
     (default mode) by one protocol: CUDA events around each call, warm-up
     calls, then >= 100 timed calls, each after a write of 2x the L2 size
     (at least 8 MiB), median reported. TF32 is off for PyTorch.
It also measures the GPU's peaks in the same run: copy bandwidth and cuBLAS
fp32 (TF32 off) and bf16 matmul rates.

Results go to a JSON file, rewritten after each problem; several partial
files (e.g. --problems subsets run as separate commands) are merged by
bench/report.py, which writes docs/benchmarks.md. Each problem records the
seconds of each harness stage (`harness_s`); with QIMENG_BENCH_TRACE=1 in
the environment, every tool call is announced as it starts and its stderr
(a plan search's progress) echoed as it comes, so a run cut short shows
where it was.
"""
import argparse
import fnmatch
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import problems as registry  # noqa: E402

TRIALS = 5
TOLERANCE = 1e-4


def find_tool(name, bin_dir):
    if bin_dir:
        path = os.path.join(bin_dir, name)
        if os.path.exists(path):
            return path
    path = shutil.which(name)
    if not path:
        sys.exit("bench: %s not found (use --bin DIR or PATH)" % name)
    return path


def run(cmd, timeout):
    """Runs `cmd` with a time limit: (exit code, stdout, stderr, seconds).
    With QIMENG_BENCH_TRACE set, each call is announced before it starts
    and its stderr (e.g. a plan search's progress) is echoed as it comes,
    so a run cut short still shows where it was."""
    trace = bool(os.environ.get("QIMENG_BENCH_TRACE"))
    name = " ".join(os.path.basename(a) for a in cmd[:4])
    start = time.time()
    if trace:
        print("  [start] %s" % name, file=sys.stderr, flush=True)
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE,
                                text=True)
        lines = []

        def read_stderr():
            for line in proc.stderr:
                lines.append(line)
                if trace:
                    print("    | " + line.rstrip("\n"), file=sys.stderr,
                          flush=True)

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
        reader.join(5)
        out.seek(0)
        stdout = out.read()
    seconds = time.time() - start
    if trace:
        print("  [%.2f s] %s" % (seconds, name), file=sys.stderr, flush=True)
    if code is None:
        return 124, "", "timed out after %d s" % timeout, seconds
    return code, stdout, "".join(lines), seconds


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


# --- PyTorch side -------------------------------------------------------------

def torch_modules():
    import numpy
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return numpy, torch


def make_inputs(problem, seed, torch):
    """The problem's inputs on the CPU, as KernelBench draws them."""
    gen = torch.Generator().manual_seed(seed)
    tensors = []
    for spec in problem.inputs:
        dtype = getattr(torch, spec.dtype)
        if dtype.is_floating_point:
            draw = torch.randn if spec.kind == "randn" else torch.rand
            tensors.append(draw(spec.shape, generator=gen, dtype=dtype))
        else:
            tensors.append(torch.randint(0, 16, spec.shape, generator=gen,
                                         dtype=dtype))
    return tensors


def l2_flush_bytes(torch):
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0)
    return max(2 * l2, 8 << 20)


def time_events(call, warmup, runs, torch):
    """Median (and min) ms of call(): CUDA events around each call, the L2
    flushed before it."""
    flush = torch.empty(l2_flush_bytes(torch) // 4, dtype=torch.float32,
                        device="cuda")
    for _ in range(warmup):
        call()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        flush.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return {"median_ms": statistics.median(times), "min_ms": min(times),
            "runs": runs, "warmup": warmup}


def time_torch(fn, inputs, warmup, runs, torch):
    """Median (and min) ms of fn(*inputs): CUDA events, flushed L2."""
    return time_events(lambda: fn(*inputs), warmup, runs, torch)


def measure_peaks(torch, quick):
    """Copy bandwidth and cuBLAS fp32 / bf16 matmul rates of this GPU."""
    runs = 10 if quick else 30
    peaks = {}
    n = 256 << 20  # 1 GiB of floats
    x = torch.empty(n, dtype=torch.float32, device="cuda").normal_()
    y = torch.empty_like(x)
    t = time_torch(lambda a, b: b.copy_(a), [x, y], 3, runs, torch)
    peaks["copy_gbps"] = 2 * n * 4 / (t["median_ms"] * 1e6)
    del x, y
    size = 8192
    for name, dtype in (("fp32_tflops", torch.float32),
                        ("bf16_tflops", torch.bfloat16)):
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        t = time_torch(torch.matmul, [a, b], 3, runs, torch)
        peaks[name] = 2 * size ** 3 / (t["median_ms"] * 1e9)
    return peaks


# --- QiMeng side ----------------------------------------------------------------

def compile_problem(problem, opt, workdir, args):
    source = os.path.join(HERE, "problems", problem.mlir)
    compiled = os.path.join(workdir, "compiled.mlir")
    report = os.path.join(workdir, "compile-report.json")
    # The default run uses the built-in plans only; a tuned run takes the
    # tuning database's plans and searches the kernels it has none for.
    tuning = ["--tuning-db=" + (args.tuning_db or "off")]
    if args.search:
        tuning += ["--qimeng-search=%d" % args.search,
                   "--qimeng-search-budget=%g" % args.search_budget]
    code, _, err, seconds = run([opt, source, "--llm-plan", "--lower-to-nvvm",
                                 "--qimeng-report=" + report, "-o", compiled]
                                + tuning, 1800)
    result = {"compile_s": round(seconds, 3)}
    if args.keep_reports and os.path.exists(report):
        os.makedirs(args.keep_reports, exist_ok=True)
        shutil.copy(report, os.path.join(args.keep_reports,
                                         problem.name + ".json"))
    if code != 0:
        result["error"] = "compile: " + last_line(err)
        return None, result
    try:
        with open(report) as f:
            kernel = json.load(f)["kernels"].get(problem.entry, {})
        result["plan"] = kernel.get("plan")
        if "tuning" in kernel:
            tuned = kernel["tuning"]
            result["tuning"] = {k: tuned[k] for k in (
                "source", "time_ms", "default_ms", "speedup", "seconds",
                "best", "generated", "illegal", "pruned", "skipped",
                "measured", "proposed")
                if k in tuned}
    except (OSError, ValueError, KeyError):
        pass
    return compiled, result


def check_against_torch(problem, qrun, compiled, workdir, trials, numpy,
                        torch):
    """Runs QiMeng on `trials` fresh inputs; compares with PyTorch."""
    worst = 0.0
    for seed in range(1, trials + 1):
        inputs = make_inputs(problem, seed, torch)
        args = []
        for i, tensor in enumerate(inputs):
            path = os.path.join(workdir, "in%d.npy" % i)
            numpy.save(path, tensor.numpy())
            args.append("--input=%d=%s" % (i, path))
        # The output buffer starts as NaN (or -1 for integers): a kernel that
        # skips elements cannot pass. A returned result is the function's own
        # buffer, which --poison fills with NaN (or -1) when it is allocated.
        if not problem.returned:
            out_dtype = getattr(numpy, problem.output.dtype)
            fill = numpy.nan if numpy.issubdtype(out_dtype, numpy.floating) \
                else -1
            out_path = os.path.join(workdir, "out.npy")
            numpy.save(out_path, numpy.full(problem.output.shape, fill,
                                            dtype=out_dtype))
            args.append("--input=%d=%s" % (len(inputs), out_path))
        out_dir = os.path.join(workdir, "trial%d" % seed)
        os.makedirs(out_dir, exist_ok=True)
        code, _, err, _ = run([qrun, compiled, "--entry=" + problem.entry,
                               "--poison", "--output-dir=" + out_dir] + args,
                              600)
        if code != 0:
            return False, "seed %d: qimeng-run: %s" % (seed, last_line(err)), worst
        got_path = os.path.join(out_dir, "result0.npy")
        if not os.path.exists(got_path):
            got_path = os.path.join(out_dir, "arg%d.npy" % len(inputs))
        got = torch.from_numpy(numpy.load(got_path))
        with torch.no_grad():
            wide = [t.double().cuda() if t.is_floating_point() else t.cuda()
                    for t in inputs]
            expected = problem.reference(*wide).cpu()
        if tuple(got.shape) != tuple(expected.shape):
            return False, "seed %d: shape %s, expected %s" % (
                seed, tuple(got.shape), tuple(expected.shape)), worst
        if not expected.is_floating_point():
            bad = (got.long() != expected.long()).nonzero()
            if len(bad):
                return False, "seed %d: wrong at %s" % (
                    seed, tuple(bad[0].tolist())), worst
            continue
        got = got.double()
        if torch.isnan(got).any():
            index = tuple(torch.isnan(got).nonzero()[0].tolist())
            return False, "seed %d: NaN at %s (not written?)" % (seed, index), worst
        err = (got - expected).abs()
        scale = max(1.0, expected.pow(2).mean().sqrt().item())
        limit = TOLERANCE * scale + TOLERANCE * expected.abs()
        worst = max(worst, (err / scale).max().item())
        if (err > limit).any():
            index = tuple((err > limit).nonzero()[0].tolist())
            return False, "seed %d: at %s got %.6g, expected %.6g" % (
                seed, index, got[index].item(), expected[index].item()), worst
    return True, "", worst


def anti_cheat(problem, qrun, compiled, workdir):
    """The verifier's cheat rules: outputs NaN-poisoned, inputs unchanged,
    fresh seeds, no constant output. Accuracy was checked against PyTorch in
    float64 already; the verifier's own references sum serially in f32 (off
    by ~0.3% on a 4M-element layer norm), so its tolerance is loose here,
    and its reference runs on the GPU (plain plans): the CPU one took 25 s
    for two trials of the 67M-element LayerNorm."""
    source = os.path.join(HERE, "problems", problem.mlir)
    report = os.path.join(workdir, "verify.json")
    code, _, err, _ = run([qrun, compiled, "--verify", "--trials=2",
                           "--entry=" + problem.entry, "--reference=" + source,
                           "--reference-on=gpu", "--atol=1e-2", "--rtol=1e-2",
                           "--report=" + report], 900)
    return code == 0, "" if code == 0 else last_line(err)


def time_qimeng(problem, qrun, compiled, workdir, warmup, runs):
    report = os.path.join(workdir, "time.json")
    code, _, err, _ = run([qrun, compiled, "--entry=" + problem.entry,
                           "--time", "--warmup=%d" % warmup,
                           "--runs=%d" % runs, "--report=" + report], 900)
    if code != 0:
        return None, last_line(err)
    with open(report) as f:
        timing = json.load(f)["timing"]
    return {"median_ms": timing["median_ms"], "min_ms": timing["min_ms"],
            "runs": runs, "warmup": warmup}, ""


def bench_problem(problem, tools, args, numpy, torch):
    entry = {"name": problem.name, "level": problem.level,
             "kernelbench": problem.kernelbench, "flops": problem.flops,
             "bytes": problem.bytes, "note": problem.note,
             "shapes": problem.shapes}
    workdir = tempfile.mkdtemp(prefix="qimeng-bench-")
    # Seconds per stage of the harness (where a slow run spends its time).
    stages = entry["harness_s"] = {}
    clock = [time.time()]

    def lap(stage):
        now = time.time()
        stages[stage] = round(now - clock[0], 2)
        clock[0] = now

    try:
        compiled, result = compile_problem(problem, tools["qimeng-opt"],
                                           workdir, args)
        lap("compile")
        entry.update(result)
        if not compiled:
            entry["correct"] = False
            return entry
        if problem.bytes <= args.max_exchange_bytes:
            ok, why, worst = check_against_torch(
                problem, tools["qimeng-run"], compiled, workdir, args.trials,
                numpy, torch)
            lap("check")
            entry["max_scaled_error"] = worst
        else:
            # Gigabytes through .npy files fill the disk: such a problem is
            # checked by QiMeng's verifier alone (plain plans on the GPU,
            # inputs made on the device), below.
            ok, why = True, ""
            entry["torch_check"] = ("skipped: %d bytes exceed --max-exchange-"
                                    "bytes; checked by the verifier only"
                                    % problem.bytes)
        if ok:
            ok, why = anti_cheat(problem, tools["qimeng-run"], compiled,
                                 workdir)
            why = "verifier: " + why if not ok else ""
            lap("verify")
        entry["correct"] = ok
        if why:
            entry["error"] = why
        timing, why = time_qimeng(problem, tools["qimeng-run"], compiled,
                                  workdir, args.warmup, args.runs)
        lap("time")
        if timing:
            entry["qimeng"] = timing
        else:
            entry.setdefault("error", "timing: " + why)
        inputs = [t.cuda() for t in make_inputs(problem, 0, torch)]
        with torch.no_grad():
            entry["eager"] = time_torch(problem.reference, inputs,
                                        args.warmup, args.runs, torch)
            lap("eager")
            if not args.no_compile:
                start = time.time()
                compiled_fn = torch.compile(problem.reference)
                compiled_fn(*inputs)
                torch.cuda.synchronize()
                entry["torch_compile_s"] = round(time.time() - start, 2)
                entry["compile"] = time_torch(compiled_fn, inputs, args.warmup,
                                              args.runs, torch)
                lap("torch.compile")
        return entry
    except Exception as error:  # a broken problem must not stop the run
        entry["correct"] = False
        entry["error"] = "harness: %s: %s" % (type(error).__name__, error)
        return entry
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def select(patterns):
    if not patterns:
        return list(registry.PROBLEMS)
    chosen = []
    for problem in registry.PROBLEMS:
        if any(fnmatch.fnmatch(problem.name, p) for p in patterns):
            chosen.append(problem)
    if not chosen:
        sys.exit("bench: no problem matches %s" % ",".join(patterns))
    return chosen


def environment(torch, tools):
    props = torch.cuda.get_device_properties(0)
    env = {"gpu": props.name, "sm_count": props.multi_processor_count,
           "compute_capability": "%d.%d" % (props.major, props.minor),
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "python": platform.python_version(),
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=30)
        env["driver"] = smi.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    version = os.path.join(os.path.dirname(os.path.dirname(
        tools["qimeng-opt"])), "VERSION")
    if os.path.exists(version):
        with open(version) as f:
            env["qimeng"] = f.read().strip().splitlines()[0]
    return env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", help="directory of qimeng-opt and qimeng-run")
    parser.add_argument("--problems", default="",
                        help="comma-separated names or globs (L1-*, L2-03-*)")
    parser.add_argument("--out", default="bench-results.json")
    parser.add_argument("--quick", action="store_true",
                        help="2 correctness trials, 20 timed runs")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip torch.compile")
    parser.add_argument("--no-peaks", action="store_true")
    parser.add_argument("--max-exchange-bytes", type=int, default=2 << 30,
                        help="problems moving more bytes than this are not "
                             "checked against PyTorch through .npy files, "
                             "only by QiMeng's verifier on the GPU")
    parser.add_argument("--tuning-db",
                        help="take tuned plans from this tuning database "
                             "(default: none, the built-in plans)")
    parser.add_argument("--search", type=int, default=0,
                        help="with --tuning-db: search N candidate plans for "
                             "kernels the database has no plan for")
    parser.add_argument("--search-budget", type=float, default=0,
                        help="seconds per kernel for --search (0: no limit)")
    parser.add_argument("--keep-reports", metavar="DIR",
                        help="keep each problem's qimeng-opt report (plan, "
                             "search candidates with their phase seconds) "
                             "as DIR/<problem>.json")
    args = parser.parse_args()
    if args.search and not args.tuning_db:
        parser.error("--search needs --tuning-db")
    args.trials = 2 if args.quick else TRIALS
    args.runs = 20 if args.quick else 100
    args.warmup = 3 if args.quick else 10
    tools = {name: find_tool(name, args.bin)
             for name in ("qimeng-opt", "qimeng-run")}
    numpy, torch = torch_modules()
    chosen = select([p for p in args.problems.split(",") if p])
    results = {"format": "qimeng-bench 1", "environment":
               environment(torch, tools),
               "protocol": {"trials": args.trials, "runs": args.runs,
                            "warmup": args.warmup, "tolerance": TOLERANCE,
                            "l2_flush_bytes": l2_flush_bytes(torch),
                            "quick": args.quick,
                            "tuning_db": bool(args.tuning_db),
                            "search": args.search},
               "problems": []}
    if not args.no_peaks:
        results["peaks"] = measure_peaks(torch, args.quick)
        print("peaks: %s" % json.dumps(
            {k: round(v, 1) for k, v in results["peaks"].items()}),
            flush=True)
    for problem in chosen:
        entry = bench_problem(problem, tools, args, numpy, torch)
        results["problems"].append(entry)
        q = entry.get("qimeng", {}).get("median_ms")
        e = entry.get("eager", {}).get("median_ms")
        c = entry.get("compile", {}).get("median_ms")
        tuned = entry.get("tuning", {})
        searched = ""
        if tuned.get("source") == "search":
            searched = " search %d in %.1f s: %.4f -> %.4f ms (%.2fx)" % (
                tuned.get("measured", 0), tuned.get("seconds", 0),
                tuned.get("default_ms", 0), tuned.get("time_ms", 0),
                tuned.get("speedup", 0))
        elif tuned.get("source") == "database":
            searched = " tuned plan from the database"
        print("%-28s %-7s qimeng %s eager %s compile %s%s %s" % (
            problem.name, "ok" if entry["correct"] else "WRONG",
            "%.4f" % q if q else "-", "%.4f" % e if e else "-",
            "%.4f" % c if c else "-", searched, entry.get("error", "")),
            flush=True)
        print("  harness seconds: %s" % " ".join(
            "%s %.1f" % item for item in entry.get("harness_s", {}).items()),
            flush=True)
        with open(args.out, "w") as f:  # keep what is done if killed
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
