"""python -m qimeng.torch export|compile|check FILE.py ...

  export FILE.py -o out.mlir [--weights args|constants]
      the problem's model as linalg on tensors (inputs on the meta device:
      nothing large is allocated; parameters as leading arguments unless
      --weights constants)
  compile FILE.py -o out.qimeng [--target sm_90] [--cpu]
      export, then qimeng-opt --llm-plan --lower-to-nvvm into an artifact
      directory that qimeng.torch.load() runs
  check FILE.py... [--cpu] [--trials N] [--time] [--tf32] [--gpu-lock FILE]
        [--json report.json]
      the problem through torch.compile(backend="qimeng") (no fallback
      allowed) against eager PyTorch on fresh seeded inputs, with
      KernelBench's tolerance (atol = rtol = 1e-2); --time times both with
      CUDA events (same protocol); eager runs with TF32 off (cuDNN's
      convolutions and cuBLAS's matmuls in full f32, as QiMeng computes)
      unless --tf32 keeps PyTorch's defaults; --gpu-lock FILE compiles
      first, then checks and times holding a lock on FILE, so that checks
      in parallel processes share one GPU without disturbing each other's
      times
  report REPORT.json... [--json summary.json]
      sums check reports: problems per status, and the geometric mean of
      eager time / QiMeng time over the correct ones that were timed

Exit status: 0 on success, 1 when the problem fails (not exportable, does
not compile, falls back, mismatches), 2 on bad usage.
"""

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path


def _problem(path):
    from .problem import load_problem

    return load_problem(path)


def cmd_export(a):
    from .problem import export_problem

    exported = export_problem(_problem(a.file), a.weights, a.func)
    out = Path(a.output)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(exported.mlir)
    tmp.replace(out)
    print(f"{out}: @{a.func}, {len(exported.params)} parameter(s) then "
          f"{exported.num_inputs} input(s)", file=sys.stderr)
    return 0


def cmd_compile(a):
    from .compiled import compile
    from .problem import export_problem

    exported = export_problem(_problem(a.file), func_name=a.func)
    art = compile(exported, a.output, target=a.target, fmt=a.format,
                  on_cpu=a.cpu)
    print(f"{art}: compiled for {'the CPU' if a.cpu else a.target}",
          file=sys.stderr)
    return 0


def _flatten(x):
    import torch

    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for y in x for t in _flatten(y)]
    return []


def _time_ms(fn, inputs, runs, warmup):
    import torch

    for _ in range(warmup):
        fn(*inputs)
    torch.cuda.synchronize()
    samples = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*inputs)
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    samples.sort()
    return samples[len(samples) // 2]


def _compare(got, expected, atol, rtol, chunk=1 << 25):
    """(largest absolute error, allclose) of two tensors of one shape,
    compared a chunk of elements at a time: KernelBench's current shapes
    reach several GB a tensor, and float64 temporaries of whole tensors
    would take several times that on the GPU."""
    import torch

    g, e = got.reshape(-1), expected.reshape(-1)
    worst, close = 0.0, True
    for start in range(0, e.numel(), chunk):
        gc, ec = g[start:start + chunk], e[start:start + chunk]
        diff = (gc.double() - ec.double()).abs()
        worst = max(worst, float(diff.max()))
        close = close and torch.allclose(gc, ec, atol=atol, rtol=rtol,
                                         equal_nan=True)
    return worst, close


def _unwrap(e):
    # Dynamo wraps a backend's exception; its message starts with the
    # backend's name.
    while getattr(e, "inner_exception", None) is not None:
        e = e.inner_exception
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"


@contextlib.contextmanager
def _exclusive(lock_path):
    """Holds an exclusive lock on lock_path (a file, created if missing);
    does nothing when lock_path is None."""
    if lock_path is None:
        yield
        return
    import fcntl

    with open(lock_path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def check(path, *, cpu=False, trials=2, seed=0, atol=1e-2, rtol=1e-2,
          timing=False, runs=100, warmup=10, target="sm_90", gpu_lock=None,
          tf32=False):
    """Runs one problem file; returns its report (a dict). With gpu_lock (a
    file path), the model is compiled first, then the check and the timing
    hold an exclusive lock on that file: checks run in parallel processes
    overlap their compiles and use the GPU one at a time. Eager PyTorch
    runs with TF32 off unless tf32 (the settings stay as they are then:
    PyTorch's defaults put cuDNN's convolutions in TF32)."""
    import torch

    with _tf32_allowed(torch, tf32):
        report = _check(torch, path, cpu=cpu, trials=trials, seed=seed,
                        atol=atol, rtol=rtol, timing=timing, runs=runs,
                        warmup=warmup, target=target, gpu_lock=gpu_lock)
    if not cpu:
        report["eager_tf32"] = tf32
    return report


@contextlib.contextmanager
def _tf32_allowed(torch, allowed):
    """Turns TF32 off for cuDNN and cuBLAS unless allowed (then the
    settings stay as they are), restoring them after."""
    saved = (torch.backends.cudnn.allow_tf32,
             torch.backends.cuda.matmul.allow_tf32)
    if not allowed:
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
    try:
        yield
    finally:
        (torch.backends.cudnn.allow_tf32,
         torch.backends.cuda.matmul.allow_tf32) = saved


def _check(torch, path, *, cpu, trials, seed, atol, rtol, timing, runs,
           warmup, target, gpu_lock):
    """check() under the TF32 settings it chose."""
    from .backend import qimeng_backend

    report = {"problem": str(path), "device": "cpu" if cpu else "cuda:0"}
    try:
        problem = _problem(path)
    except Exception as e:
        report.update(status="error", why=str(e))
        return report
    report["name"] = problem.name
    device = "cpu" if cpu else "cuda:0"
    if not cpu and not torch.cuda.is_available():
        report.update(status="error", why="no CUDA device (use --cpu)")
        return report
    torch._dynamo.reset()
    torch.manual_seed(seed)
    try:
        model, inputs = problem.build(device)
    except Exception as e:
        report.update(status="error", why=f"building the problem: {_unwrap(e)}")
        return report
    compiled = torch.compile(
        model, backend=qimeng_backend,
        options={"strict": True, "cpu": cpu, "target": target})
    def failed(e):
        report.update(status="fallback" if "Fallback" in _unwrap(e)
                      else "error", why=_unwrap(e))
        return report

    start = time.perf_counter()
    if gpu_lock is not None:
        # The first call compiles: made before taking the GPU, so that
        # checks in parallel processes overlap their compiles.
        try:
            with torch.no_grad():
                compiled(*inputs)
        except Exception as e:
            return failed(e)
        report["compile_s"] = round(time.perf_counter() - start, 3)
    with _exclusive(gpu_lock):
        worst = 0.0
        for trial in range(trials):
            if trial:
                torch.manual_seed(seed + trial)
                inputs = problem.draw_inputs(device)
            with torch.no_grad():
                expected = _flatten(model(*inputs))
                try:
                    got = _flatten(compiled(*inputs))
                except Exception as e:
                    return failed(e)
            report.setdefault("compile_s",
                              round(time.perf_counter() - start, 3))
            if len(got) != len(expected):
                report.update(status="mismatch", why=f"{len(got)} outputs, "
                              f"eager gives {len(expected)}")
                return report
            for i, (g, e) in enumerate(zip(got, expected)):
                if g.shape != e.shape or g.dtype != e.dtype:
                    report.update(status="mismatch", why=f"output {i} is "
                                  f"{g.dtype}{list(g.shape)}, eager gives "
                                  f"{e.dtype}{list(e.shape)}")
                    return report
                err, close = _compare(g, e, atol, rtol)
                worst = max(worst, err)
                if not close:
                    report.update(status="mismatch", max_abs_err=worst,
                                  why=f"output {i} differs beyond atol={atol} "
                                      f"rtol={rtol} (trial {trial})")
                    return report
        report.update(status="correct", max_abs_err=worst, trials=trials)
        if timing and not cpu:
            with torch.no_grad():
                eager_ms = _time_ms(model, inputs, runs, warmup)
                qimeng_ms = _time_ms(compiled, inputs, runs, warmup)
            report.update(eager_ms=eager_ms, qimeng_ms=qimeng_ms,
                          speedup=eager_ms / qimeng_ms if qimeng_ms else None,
                          runs=runs, warmup=warmup)
    return report


def cmd_check(a):
    reports = []
    for f in a.files:
        r = check(f, cpu=a.cpu, trials=a.trials, seed=a.seed, atol=a.atol,
                  rtol=a.rtol, timing=a.time, runs=a.runs, target=a.target,
                  gpu_lock=a.gpu_lock, tf32=a.tf32)
        reports.append(r)
        line = f"{r.get('name', f)}: {r['status']}"
        if "why" in r:
            line += f" ({r['why']})"
        if "speedup" in r:
            line += (f" eager {r['eager_ms']:.4f} ms, qimeng "
                     f"{r['qimeng_ms']:.4f} ms, {r['speedup']:.2f}x")
        print(line, flush=True)
        if a.json:
            Path(a.json).write_text(json.dumps(reports, indent=1) + "\n")
    return 0 if all(r["status"] == "correct" for r in reports) else 1


def summarize(reports):
    """Counts per status and the geomean speedup over eager (timed, correct
    problems) of check reports."""
    import math

    statuses = {}
    for r in reports:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    timed = [r for r in reports if r["status"] == "correct" and r.get("speedup")]
    geomean = (math.exp(sum(math.log(r["speedup"]) for r in timed) / len(timed))
               if timed else None)
    return {"problems": len(reports), "statuses": statuses,
            "correct_fraction": statuses.get("correct", 0) / len(reports)
            if reports else 0.0,
            "timed": len(timed), "geomean_speedup_vs_eager": geomean,
            "not_correct": sorted(
                (r.get("name", r["problem"]), r["status"], r.get("why", ""))
                for r in reports if r["status"] != "correct")}


def cmd_report(a):
    reports = []
    for f in a.files:
        data = json.loads(Path(f).read_text())
        reports += data if isinstance(data, list) else [data]
    summary = summarize(reports)
    print(f"{summary['problems']} problems: " + ", ".join(
        f"{n} {s}" for s, n in sorted(summary["statuses"].items())))
    if summary["geomean_speedup_vs_eager"]:
        print(f"geomean {summary['geomean_speedup_vs_eager']:.3f}x eager over "
              f"{summary['timed']} timed problems")
    if a.json:
        Path(a.json).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m qimeng.torch",
                                description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="problem file -> linalg on tensors")
    e.add_argument("file")
    e.add_argument("-o", "--output", required=True)
    e.add_argument("--weights", choices=["args", "constants"], default="args")
    e.add_argument("--func", default="forward")
    c = sub.add_parser("compile", help="problem file -> compiled artifact")
    c.add_argument("file")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--func", default="forward")
    c.add_argument("--target", default="sm_90")
    c.add_argument("--format", default=None, help="isa, bin or fatbin")
    c.add_argument("--cpu", action="store_true")
    k = sub.add_parser("check", help="backend against eager PyTorch")
    k.add_argument("files", nargs="+")
    k.add_argument("--cpu", action="store_true")
    k.add_argument("--trials", type=int, default=2)
    k.add_argument("--seed", type=int, default=0)
    k.add_argument("--atol", type=float, default=1e-2)
    k.add_argument("--rtol", type=float, default=1e-2)
    k.add_argument("--time", action="store_true")
    k.add_argument("--runs", type=int, default=100)
    k.add_argument("--target", default="sm_90")
    k.add_argument("--tf32", action="store_true",
                   help="eager with PyTorch's TF32 defaults (cuDNN's "
                        "convolutions in TF32), not in full f32")
    k.add_argument("--gpu-lock", metavar="FILE",
                   help="compile first, then check and time holding an "
                        "exclusive lock on FILE (checks run in parallel "
                        "processes use the GPU one at a time)")
    k.add_argument("--json")
    r = sub.add_parser("report", help="sum check reports")
    r.add_argument("files", nargs="+")
    r.add_argument("--json")
    a = p.parse_args(argv)
    from .exporter import ExportError
    from .problem import ProblemError
    from .. import _tools

    try:
        return {"export": cmd_export, "compile": cmd_compile,
                "check": cmd_check, "report": cmd_report}[a.cmd](a)
    except (ExportError, ProblemError, _tools.ToolError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
