#!/usr/bin/env python3
"""Verifies and times every example with qimeng-run and writes a per-family
report (max error, median times, speedup over the naive reference).

Each example runs `qimeng-run --verify --time --report=...` (3 trials with
NaN-poisoned outputs against the original program with plain plans, then
CUDA-event timing of candidate and reference with a flushed L2). Runs one
example at a time: timings on a shared GPU mean nothing.

Usage: verify_examples.py [--qimeng-run BIN] [--examples DIR] [--out DIR]
                          [--runs N] [--warmup N] [NAME ...]
Writes OUT/<name>.json (qimeng-run reports), OUT/summary.json and
OUT/summary.md; exits 1 if any example fails.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import time

# Flags an example needs (the same as its RUN line in
# test/Integration/GPU/examples-*.test); bench/mutants/run.py and
# plan_fuzz.py use this table too.
EXTRA_FLAGS = {
    "elementwise_dynamic_batch": ["--shape=0=4096", "--shape=1=4096"],
    "dynamic_returned": ["--shape=0=3001x1024"],
    "matmul_bf16_dynamic": ["--shape=0=777"],
    "linear_bf16_bias_gelu": ["--shape=0=1000"],
}

FAMILIES = [
    ("matmul", ("matmul", "batch_matmul", "matvec", "linear_", "gemm_")),
    ("elementwise", ("relu", "gelu", "sigmoid", "softplus", "bias_add",
                     "elementwise")),
    ("reduction", ("reduce_", "argmax", "softmax", "log_softmax", "layernorm",
                   "rmsnorm")),
    ("conv/pool", ("conv", "depthwise", "maxpool", "avgpool")),
]


def family(name):
    base = name.split("@")[0]
    for fam, prefixes in FAMILIES:
        if any(base.startswith(p) for p in prefixes):
            return fam
    return "other"


def worst_error(report):
    worst = 0.0
    for trial in report.get("verify", {}).get("trials", []):
        for out in trial.get("outputs", []):
            err = out.get("max_abs_error")
            worst = float("inf") if err is None else max(worst, err)
    return worst


def worst_margin(report):
    """The largest error over its allowance in any trial (and the check
    after timing): below 1 when everything matched."""
    verify = report.get("verify", {})
    trials = list(verify.get("trials", []))
    if "after_timing" in verify:
        trials.append(verify["after_timing"])
    worst = 0.0
    for trial in trials:
        for out in trial.get("outputs", []):
            m = out.get("margin")
            worst = float("inf") if m is None else max(worst, m)
    return worst


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qimeng-run", default=os.path.join(root, "bin", "qimeng-run"))
    ap.add_argument("--examples", default=os.path.join(root, "examples"))
    ap.add_argument("--out", default="verify-report")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--no-time", action="store_true",
                    help="verify only (no timing): for margins, with -j")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="examples at once (only with --no-time: timings on "
                    "a shared GPU mean nothing)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    paths = sorted(glob.glob(os.path.join(args.examples, "*.mlir")))
    paths += sorted(glob.glob(os.path.join(args.examples, "plans", "*.mlir")))
    selected = []
    for path in paths:
        name = os.path.basename(path)[: -len(".mlir")]
        if args.names and name not in args.names and name.split("@")[0] not in args.names:
            continue
        selected.append((name, path))
    if args.jobs > 1 and not args.no_time:
        ap.error("-j needs --no-time: timings on a shared GPU mean nothing")

    def verify(item):
        name, path = item
        base = name.split("@")[0]
        report_path = os.path.join(args.out, name + ".json")
        cmd = [args.qimeng_run, path, "--verify",
               f"--timeout={args.timeout}", f"--report={report_path}"]
        if not args.no_time:
            cmd += ["--time", f"--runs={args.runs}", f"--warmup={args.warmup}"]
        cmd += EXTRA_FLAGS.get(base, [])
        start = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        try:
            with open(report_path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            report = {"status": "no-report", "message": proc.stderr.strip()[-300:]}
        timing = report.get("verify", {}).get("timing", {})
        return {
            "name": name,
            "family": family(name),
            "status": report.get("status"),
            "message": report.get("message", ""),
            "max_abs_error": worst_error(report),
            "margin": worst_margin(report),
            "seed": report.get("verify", {}).get("seed"),
            "candidate_median_ms": timing.get("candidate", {}).get("median_ms"),
            "reference_median_ms": timing.get("reference", {}).get("median_ms"),
            "speedup": report.get("verify", {}).get("speedup"),
            "device": report.get("device", {}).get("name"),
            "seconds": round(time.time() - start, 1),
        }

    rows, failed = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row in pool.map(verify, selected):
            rows.append(row)
            failed += row["status"] != "pass"
            print(f"{row['name']}: {row['status']} err {row['max_abs_error']:.2e} "
                  f"margin {row['margin']:.3f} "
                  f"candidate {row['candidate_median_ms']} ms "
                  f"reference {row['reference_median_ms']} ms ({row['seconds']} s)"
                  + ("" if row["status"] == "pass" else " -- " + row["message"]),
                  flush=True)
            # Written after every example: a run cut short keeps what it did.
            with open(os.path.join(args.out, "summary.json"), "w") as f:
                json.dump(rows, f, indent=1)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("| family | example | result | max abs error | margin | QiMeng median ms "
                "| naive reference median ms | speedup |\n|---|---|---|---|---|---|---|---|\n")
        for row in sorted(rows, key=lambda r: (r["family"], r["name"])):
            def ms(v):
                return "-" if v is None else f"{v:.4f}"
            f.write(f"| {row['family']} | {row['name']} | {row['status']} | "
                    f"{row['max_abs_error']:.1e} | {row['margin']:.3f} | "
                    f"{ms(row['candidate_median_ms'])} | "
                    f"{ms(row['reference_median_ms'])} | "
                    f"{'-' if not row['speedup'] else '%.1fx' % row['speedup']} |\n")
    print(f"{len(rows) - failed}/{len(rows)} verified", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
