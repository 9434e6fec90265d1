#!/usr/bin/env python3
"""Runs the verifier on the mutants of generate.py.

  run.py filter --mutants DIR --examples DIR --opt qimeng-opt --run qimeng-run [-j N]
      Keeps the wrong kernels: a mutant that does not parse and verify is
      dropped as invalid; one whose outputs equal its example's bit for bit
      on the host (`qimeng-run --cpu --verify --atol=0 --rtol=0
      --wide-reference=false`, two seeds)
      is dropped as equivalent, and one that differs by less than the
      verifier's tolerance (default rules, on the host) as sub-tolerance;
      one the host cannot run in --timeout seconds is kept as unfiltered.
      Writes DIR/filter.json.

  run.py verify --mutants DIR --examples DIR --run qimeng-run [--filter F]
                [--cpu] [-j N]
      `qimeng-run --verify` (default tolerances, fresh seeds, 2 trials) on
      every kept mutant (by DIR/filter.json, or --filter F: the committed
      bench/mutants/results/filter.json) against its example, on the GPU
      (--cpu: the mutant's program on the host). Every one must be
      rejected. Writes
      DIR/verify.json (per mutant: verdict, reason, margin) and prints a
      summary per kind; exits 1 if any mutant was accepted.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import subprocess
import sys


# The flags the examples with dynamic sizes run with: one table, in
# scripts/verify_examples.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from verify_examples import EXTRA_FLAGS as SHAPES  # noqa: E402


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout"


def last_line(text):
    """The first error line, else the last line."""
    lines = [l for l in text.strip().split("\n") if l.strip()]
    errors = [l for l in lines if "error:" in l]
    return (errors or lines or [""])[0 if errors else -1][:400]


def filter_one(m, args):
    path = os.path.join(args.mutants, m["file"])
    code, err = run([args.opt, path, "-o", os.devnull], 60)
    if code != 0:
        return "invalid", last_line(err)
    # Bit for bit: the example as it is (no f64 accumulation) against the
    # mutant.
    code, err = run([args.run, "--cpu", "--verify", "--atol=0", "--rtol=0",
                     "--wide-reference=false", "--trials=2", "--seed=1",
                     "--reference=" + os.path.join(args.examples, m["reference"]),
                     path] + SHAPES.get(m["example"], []), args.timeout)
    if code is None:
        return "unfiltered", "the host run took longer than %d s" % args.timeout
    if code == 0:
        return "equivalent", "bit-identical to the example on the host"
    if "does not match the reference" not in err:
        return "invalid", last_line(err)
    # Different, but by more than the verifier's tolerance? A change below
    # it (an epsilon of 1e-5 doubled) is not a wrong kernel by its contract.
    code, err = run([args.run, "--cpu", "--verify", "--trials=2", "--seed=1",
                     "--reference=" + os.path.join(args.examples, m["reference"]),
                     path] + SHAPES.get(m["example"], []), args.timeout)
    if code == 0:
        return "sub-tolerance", "differs on the host by less than the tolerance"
    if code is None:
        return "unfiltered", "the host run took longer than %d s" % args.timeout
    return "wrong", last_line(err)


def verify_one(m, args):
    path = os.path.join(args.mutants, m["file"])
    report = os.path.join(args.mutants, "reports", m["name"] + ".json")
    cmd = [args.run, "--verify", "--trials=2",
           "--reference=" + os.path.join(args.examples, m["reference"]),
           path, "--report=" + report] + SHAPES.get(m["example"], [])
    if args.cpu:
        cmd.insert(1, "--cpu")
    code, err = run(cmd, args.timeout)
    r = load(report, {})
    margins = [o.get("margin") for t in r.get("verify", {}).get("trials", [])
               for o in t.get("outputs", [])]
    margin = None if any(x is None for x in margins) or not margins else max(margins)
    if code is None:
        return {"verdict": "error", "reason": "timeout"}
    status = r.get("status")
    verdict = {"pass": "accepted", "fail": "rejected"}.get(status, "error")
    return {"verdict": verdict, "status": status, "margin": margin,
            "seed": r.get("verify", {}).get("seed"),
            "reason": r.get("message") or last_line(err)}


def parallel(fn, items, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["filter", "verify"])
    ap.add_argument("--mutants", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--filter", help="filter.json to use (default: DIR's)")
    ap.add_argument("--opt", default="qimeng-opt")
    ap.add_argument("--run", default="qimeng-run")
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    manifest = load(os.path.join(args.mutants, "manifest.json"))
    mutants = manifest["mutants"]
    for m in mutants:
        m["sha"] = digest(os.path.join(args.mutants, m["file"]))
    if args.step == "filter":
        # A mutant filtered before (the same text) keeps its verdict.
        path = os.path.join(args.mutants, "filter.json")
        out = load(path, {})
        unseen = [m for m in mutants
                  if out.get(m["name"], {}).get("sha") != m["sha"]]
        results = parallel(lambda m: filter_one(m, args), unseen, args.jobs)
        for m, (v, w) in zip(unseen, results):
            out[m["name"]] = {"filter": v, "why": w, "sha": m["sha"]}
        out = {m["name"]: out[m["name"]] for m in mutants}
        with open(path, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
        counts = {}
        for entry in out.values():
            counts[entry["filter"]] = counts.get(entry["filter"], 0) + 1
        print("filter: " + ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())))
        return 0
    filtered = load(args.filter or os.path.join(args.mutants, "filter.json"), {})
    # Kept: the wrong ones, and any the filter has not seen in this form.
    def keep(m):
        entry = filtered.get(m["name"])
        if not entry or entry.get("sha") != m["sha"]:
            return True
        return entry["filter"] in ("wrong", "unfiltered")
    kept = [m for m in mutants if keep(m)]
    # In a fixed shuffled order: a run cut short covers every example.
    random.Random(1).shuffle(kept)
    os.makedirs(os.path.join(args.mutants, "reports"), exist_ok=True)
    out, per_kind = {}, {}
    # Written as results come: a run cut short keeps what it did.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(verify_one, m, args): m for m in kept}
        for future in concurrent.futures.as_completed(futures):
            m, r = futures[future], future.result()
            r.update({"kind": m["kind"], "example": m["example"], "why": m["why"]})
            out[m["name"]] = r
            k = per_kind.setdefault(m["kind"], {"rejected": 0, "accepted": 0, "error": 0})
            k[r["verdict"]] += 1
            with open(os.path.join(args.mutants, "verify.json"), "w") as f:
                json.dump({"summary": per_kind, "kept": len(kept), "mutants": out},
                          f, indent=1, sort_keys=True)
    total = {v: sum(k[v] for k in per_kind.values()) for v in ("rejected", "accepted", "error")}
    for kind, k in sorted(per_kind.items()):
        print("%-9s rejected %3d  accepted %d  error %d" % (kind, k["rejected"], k["accepted"], k["error"]))
    print("verify: %d mutants: %d rejected, %d accepted, %d could not run" % (
        len(kept), total["rejected"], total["accepted"], total["error"]))
    for name, r in sorted(out.items()):
        if r["verdict"] != "rejected":
            print("  %s: %s: %s" % (name, r["verdict"], r["reason"]))
    return 1 if total["accepted"] else 0


if __name__ == "__main__":
    sys.exit(main())
