#!/usr/bin/env python3
"""QiMeng's plans emitted as Triton kernels, on the benchmark problems
(docs/triton.md): correct against PyTorch, and how fast.

    # build machine: emit every problem's module (built-in plans, sm_90)
    .venv/bin/python bench/triton/triton_bench.py prepare --out DIR
    # GPU machine (torch and triton 3.6.0 there): run, check, time
    python3 bench/triton/triton_bench.py run --dir DIR --json results.json [--qimeng]

`run` checks each problem's `launch` against the problem's PyTorch
reference (computed in float64 on the GPU) with the benchmark's tolerance
(1e-4 * max(1, rms) + 1e-4 * |expected|), then times it and PyTorch eager
with triton.testing.do_bench (median milliseconds, L2 flushed). With
`--qimeng`, QiMeng's own kernels for the problem (`qimeng-opt --llm-plan
--lower-to-nvvm`, built-in plans, run through the qimeng package's runtime:
QIMENG_HOME or the checkout's build/) are checked and timed the same way in
the same process, beside the Triton module.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT / "python"))
import problems as registry  # noqa: E402

TOLERANCE = 1e-4


def prepare(args):
    out = Path(args.out)
    for problem in registry.PROBLEMS:
        folder = out / problem.name
        proc = subprocess.run(
            [args.qimeng_opt, str(ROOT / "bench" / "problems" / problem.mlir),
             "--llm-plan", "--tuning-db=off", f"--qimeng-emit-triton={folder}",
             "-o", "/dev/null"], stderr=subprocess.PIPE, text=True)
        reasons = [l.split("warning: ")[1] for l in proc.stderr.splitlines()
                   if "not emitted to Triton" in l]
        status = "emitted" if proc.returncode == 0 and not reasons else \
            (reasons[0] if reasons else "qimeng-opt failed")
        print(f"{problem.name}: {status}", file=sys.stderr)
    return 0


def _qimeng(problem, call, expected, scale):
    """QiMeng's own kernels for `problem` on the same inputs: checked like
    the Triton module and timed the same way."""
    import tempfile

    import triton.testing
    from qimeng import _tools, runtime

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        compiled = Path(tmp) / "qimeng.mlir"
        try:
            _tools.run_qimeng_opt(
                [str(ROOT / "bench" / "problems" / problem.mlir), "--llm-plan",
                 "--tuning-db=off", "--lower-to-nvvm", "-o", str(compiled)],
                timeout=600)
            function = runtime.Module(str(compiled)).function(problem.entry)
            got = function(*call)
        except Exception as error:  # a compile or launch failure
            return {"qimeng_correct": False, "qimeng_error": str(error)[-400:]}
    got = (got[0] if isinstance(got, (tuple, list)) else got)
    got = got.double().reshape(expected.shape)
    error = (got - expected).abs()
    out["qimeng_max_error"] = float(error.max())
    out["qimeng_correct"] = bool((error <= TOLERANCE * scale +
                                  TOLERANCE * expected.abs()).all())
    if out["qimeng_correct"]:
        out["qimeng_ms"] = triton.testing.do_bench(lambda: function(*call))
    return out


def run(args):
    import torch
    from qimeng import triton as qtriton

    records = []
    torch.manual_seed(0)
    for problem in registry.PROBLEMS:
        folder = Path(args.dir) / problem.name
        if not (folder / "manifest.json").exists():
            continue
        kernels = qtriton.manifest(folder)["kernels"]
        if not kernels:
            continue
        module = qtriton.load_module(folder / kernels[0]["file"])
        record = {"problem": problem.name, "kernels": len(module.KERNELS)}
        inputs = [(torch.randn(*i.shape) if i.kind == "randn"
                   else torch.rand(*i.shape)).cuda() for i in problem.inputs]
        call = list(inputs)
        if not problem.returned:
            call.append(torch.zeros(problem.output.shape, device="cuda"))
        try:
            expected, scale = _check_triton(problem, module, inputs, call, record)
            if args.qimeng:
                record.update(_qimeng(problem, call, expected, scale))
        except Exception as error:  # a compile, launch or comparison failure
            record.update(correct=False, error=str(error)[-400:])
        records.append(record)
        print(json.dumps(record), file=sys.stderr)
        # Rewritten after each problem: a run cut short keeps what it did.
        Path(args.json).write_text(json.dumps(
            {"gpu": torch.cuda.get_device_name(0),
             "triton": __import__("triton").__version__,
             "torch": torch.__version__, "tolerance": TOLERANCE,
             "records": records}, indent=2) + "\n")
    return 0


def _check_triton(problem, module, inputs, call, record):
    """Runs the Triton module's launcher on `call`, compares it with the
    problem's float64 reference and, when correct, times it beside eager;
    fills `record` and returns the reference and its rms scale."""
    import torch
    import triton.testing
    got = module.launch(*call)
    torch.cuda.synchronize()
    # Integer results (argmax) compare as doubles too.
    expected = problem.reference(*[t.double() for t in inputs]).double()
    got = got.double().reshape(expected.shape)
    scale = max(1.0, float(expected.pow(2).mean().sqrt()))
    error = (got - expected).abs()
    record["max_error"] = float(error.max())
    record["correct"] = bool((error <= TOLERANCE * scale +
                              TOLERANCE * expected.abs()).all())
    if record["correct"]:
        record["triton_ms"] = triton.testing.do_bench(lambda: module.launch(*call))
        record["eager_ms"] = triton.testing.do_bench(
            lambda: problem.reference(*inputs))
        record["speedup_over_eager"] = record["eager_ms"] / record["triton_ms"]
        # Device time without the host's launch cost: both replayed from a
        # CUDA graph (None where capture fails).
        record["triton_graph_ms"] = _graph_ms(lambda: module.launch(*call))
        record["eager_graph_ms"] = _graph_ms(lambda: problem.reference(*inputs))
    return expected, scale


def _graph_ms(fn):
    """Milliseconds per call of `fn` replayed from a CUDA graph, or None."""
    import triton.testing
    try:
        return triton.testing.do_bench_cudagraph(fn)
    except Exception as error:  # capture is not possible for every launcher
        print(f"note: no CUDA graph timing: {str(error)[:200]}", file=sys.stderr)
        return None


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--out", required=True)
    p.add_argument("--qimeng-opt", default=str(ROOT / "build" / "bin" / "qimeng-opt"))
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--json", required=True)
    r.add_argument("--qimeng", action="store_true",
                   help="also check and time QiMeng's own kernels")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
