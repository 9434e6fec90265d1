#!/usr/bin/env python3
"""IREE's own configuration against IREE with QiMeng's tuning spec, on the
benchmark problems whose plans tile a contraction (docs/iree.md).

Two halves, since the GPU machine has no LLVM and the build machine no GPU:

    # build machine: plan (sm_80, IREE 3.13's CUDA target), export each spec,
    # compile a default and a spec .vmfb per problem, write manifest.json
    .venv/bin/python bench/iree/iree_bench.py prepare --out DIR [--qimeng-opt PATH]

    # GPU machine (torch, and the iree-base-runtime 3.13.0 wheel installed):
    # run both .vmfb on random inputs, check them against the PyTorch
    # reference (the benchmark's tolerance), time them with iree-benchmark-module
    python3 bench/iree/iree_bench.py run --dir DIR --json results.json

`run` writes one record per problem and variant ("default", "qimeng"):
correct, max error, median milliseconds; the speedup of the spec over
IREE's default where both are correct.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
import problems as registry  # noqa: E402

#: The benchmark's tolerance (bench/run.py): 1e-4 * max(1, rms) + 1e-4 * |x|.
TOLERANCE = 1e-4


def prepare(args):
    sys.path.insert(0, str(ROOT / "python"))
    from qimeng import iree  # noqa: E402

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for problem in registry.PROBLEMS:
        source = ROOT / "bench" / "problems" / problem.mlir
        stem = problem.name
        spec = out / f"{stem}.spec.mlir"
        proc = subprocess.run(
            [args.qimeng_opt, str(source), "--llm-plan=target=sm_80",
             "--tuning-db=off", f"--qimeng-export-iree-spec={spec}",
             "-o", os.devnull], stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or "qimeng_kernel" not in spec.read_text():
            why = [l for l in proc.stderr.splitlines() if "warning:" in l]
            print(f"{stem}: no spec ({why[0].split('warning: ')[1] if why else 'qimeng-opt failed'})",
                  file=sys.stderr)
            continue
        entry = {"problem": stem, "entry": problem.entry}
        try:
            default = iree.compile(source, out / f"{stem}.default.vmfb")
            tuned = iree.compile(source, out / f"{stem}.qimeng.vmfb", spec=spec)
        except iree.IREEError as error:
            print(f"{stem}: IREE cannot compile it: {str(error).splitlines()[0]}",
                  file=sys.stderr)
            continue
        if tuned.unmatched:
            print(f"{stem}: the spec matched no dispatch", file=sys.stderr)
            continue
        entry["variants"] = {"default": default.output.name,
                             "qimeng": tuned.output.name}
        manifest.append(entry)
        print(f"{stem}: prepared", file=sys.stderr)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return 0


def _tool(name):
    """An iree-base-runtime tool: on PATH (the wheel's iree/_runtime_libs/
    or its bin/), or next to this Python."""
    import shutil
    found = shutil.which(name)
    if found:
        return found
    return str(Path(sys.executable).parent / name)


def run(args):
    import numpy
    import torch

    folder = Path(args.dir)
    manifest = json.loads((folder / "manifest.json").read_text())
    records = []
    torch.manual_seed(0)
    for entry in manifest:
        problem = next(p for p in registry.PROBLEMS if p.name == entry["problem"])
        work = folder / "inputs" / problem.name
        work.mkdir(parents=True, exist_ok=True)
        tensors = [torch.randn(*i.shape) if i.kind == "randn" else torch.rand(*i.shape)
                   for i in problem.inputs]
        flags = []
        for index, tensor in enumerate(tensors):
            path = work / f"in{index}.npy"
            numpy.save(path, tensor.numpy())
            flags.append(f"--input=@{path}")
        if not problem.returned:
            path = work / "dest.npy"
            numpy.save(path, numpy.zeros(problem.output.shape, dtype=numpy.float32))
            flags.append(f"--input=@{path}")
        expected = problem.reference(*[t.double().cuda() for t in tensors]).cpu()
        scale = max(1.0, float(expected.pow(2).mean().sqrt()))
        for variant, module in entry["variants"].items():
            record = {"problem": problem.name, "variant": variant}
            got = work / f"{variant}.out.npy"
            proc = subprocess.run(
                [_tool("iree-run-module"), "--device=cuda",
                 f"--module={folder / module}", f"--function={problem.entry}",
                 *flags, f"--output=@{got}"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if proc.returncode != 0:
                record.update(correct=False, error=proc.stderr.strip()[-400:])
                records.append(record)
                continue
            result = torch.from_numpy(numpy.load(got)).double()
            error = (result - expected).abs()
            limit = TOLERANCE * scale + TOLERANCE * expected.abs()
            record["max_error"] = float(error.max())
            record["correct"] = bool((error <= limit).all())
            proc = subprocess.run(
                [_tool("iree-benchmark-module"), "--device=cuda",
                 f"--module={folder / module}", f"--function={problem.entry}",
                 *flags, f"--benchmark_repetitions={args.repetitions}",
                 "--benchmark_format=json"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if proc.returncode == 0:
                runs = json.loads(proc.stdout)["benchmarks"]
                times = [b["real_time"] for b in runs
                         if b.get("run_type") == "iteration"]
                unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0}[runs[0]["time_unit"]]
                record["ms"] = statistics.median(times) * unit
            else:
                record["bench_error"] = proc.stderr.strip()[-400:]
            records.append(record)
            print(json.dumps(record), file=sys.stderr)
    for name in {r["problem"] for r in records}:
        pair = {r["variant"]: r for r in records if r["problem"] == name}
        if all(v.get("correct") and "ms" in v for v in pair.values()) and len(pair) == 2:
            pair["qimeng"]["speedup_over_default"] = pair["default"]["ms"] / pair["qimeng"]["ms"]
    Path(args.json).write_text(json.dumps(
        {"gpu": torch.cuda.get_device_name(0), "iree": "3.13.0",
         "cuda_target": "sm_80", "tolerance": TOLERANCE,
         "repetitions": args.repetitions, "records": records}, indent=2) + "\n")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--out", required=True)
    p.add_argument("--qimeng-opt", default=str(ROOT / "build" / "bin" / "qimeng-opt"))
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--json", required=True)
    r.add_argument("--repetitions", type=int, default=10)
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
