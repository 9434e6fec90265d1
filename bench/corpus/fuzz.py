#!/usr/bin/env python3
"""Mutation fuzzing of qimeng-opt over the generated corpus.

Each mutant is a corpus file with one seeded change of the kinds a user's
input goes wrong in: a number changed (sizes, attributes, constants), an
element type swapped (including ones QiMeng does not compute with), a line
dropped, duplicated or swapped with another, an operation renamed, an
iterator type flipped, a static size made dynamic or the reverse, the file
cut short. qimeng-opt --llm-plan --lower-to-nvvm must then compile the
mutant, or reject it with a diagnostic and exit code 1, leaving no output
file: a signal, an LLVM fatal error, another exit code, a time-out or a
half-written output is a crash. Crashing mutants are kept for replay.

Usage:
  fuzz.py --corpus DIR --opt qimeng-opt --work DIR [--mutants N] [--seed S]
          [-j N]
writes DIR/fuzz.json (counts, and every crash with its mutant's file) and
prints "N mutants: C compiled, R rejected, K crashes".
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import compile_one  # noqa: E402

TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64",
         "index", "i4", "f8E4M3FN", "f8E5M2", "complex<f32>", "vector<4xf32>",
         "tf32", "ui8", "si32"]
NUMBERS = [0, 1, 2, 3, -1, 7, 31, 1024, 65536, 2147483648,
           9223372036854775807]
OPS = [("arith.addf", "arith.addi"), ("arith.mulf", "arith.divf"),
       ("arith.maximumf", "arith.minimumf"), ("linalg.matmul",
                                              "linalg.batch_matmul"),
       ("linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"),
       ("linalg.softmax", "linalg.generic"), ("math.exp", "math.log"),
       ("linalg.fill", "linalg.copy"), ("tensor.empty", "tensor.splat"),
       ("linalg.pooling_nchw_max", "linalg.pooling_nchw_sum"),
       ("arith.extf", "arith.truncf")]


def mutate(text, rng):
    """One mutation of `text`; returns (kind, mutant)."""
    lines = text.splitlines()
    kind = rng.choice(["number", "number", "type", "type", "drop", "dup",
                       "swap", "op", "iterator", "dynamic", "static",
                       "truncate"])
    if kind == "number":
        spots = [m for m in re.finditer(r"(?<![%#\w.])\d+(?![\w.])", text)]
        if spots:
            m = rng.choice(spots)
            return kind, text[:m.start()] + str(rng.choice(NUMBERS)) + \
                text[m.end():]
    if kind == "type":
        spots = [m for m in re.finditer(
            r"\b(f32|f16|bf16|f64|i1|i8|i16|i32|i64)\b", text)]
        if spots:
            m = rng.choice(spots)
            return kind, text[:m.start()] + rng.choice(TYPES) + text[m.end():]
    if kind in ("drop", "dup", "swap") and len(lines) > 3:
        i = rng.randrange(1, len(lines) - 1)
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        else:
            j = rng.randrange(1, len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        return kind, "\n".join(lines) + "\n"
    if kind == "op":
        present = [(a, b) for a, b in OPS if a in text or b in text]
        if present:
            a, b = rng.choice(present)
            return kind, text.replace(a, b, 1) if a in text else \
                text.replace(b, a, 1)
    if kind == "iterator":
        spots = [m for m in re.finditer(r'"(parallel|reduction)"', text)]
        if spots:
            m = rng.choice(spots)
            flipped = '"reduction"' if m.group(1) == "parallel" else '"parallel"'
            return kind, text[:m.start()] + flipped + text[m.end():]
    if kind == "dynamic":
        spots = [m for m in re.finditer(r"(?<=[<x])\d+(?=x)", text)]
        if spots:
            m = rng.choice(spots)
            return kind, text[:m.start()] + "?" + text[m.end():]
    if kind == "static":
        spots = [m for m in re.finditer(r"(?<=[<x])\?(?=x)", text)]
        if spots:
            m = rng.choice(spots)
            return kind, text[:m.start()] + str(rng.choice([1, 3, 64])) + \
                text[m.end():]
    cut = rng.randrange(len(text)) if text else 0
    return "truncate", text[:cut]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    with open(os.path.join(args.corpus, "manifest.json")) as f:
        manifest = json.load(f)
    sources = sorted(path for k in manifest["kernels"]
                     for path in k["files"].values())
    rng = random.Random(args.seed)
    mutants_dir = os.path.join(args.work, "mutants")
    os.makedirs(mutants_dir, exist_ok=True)
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for n in range(args.mutants):
            source = rng.choice(sources)
            with open(os.path.join(args.corpus, source)) as f:
                kind, text = mutate(f.read(), rng)
            path = os.path.join(mutants_dir, "m%05d.mlir" % n)
            with open(path, "w") as f:
                f.write(text)
            out = path + ".out.mlir"
            jobs.append((n, source, kind, path, pool.submit(
                compile_one, args.opt, path, out, args.timeout)))
        counts = {"compiled": 0, "rejected": 0, "crash": 0}
        crashes = []
        by_kind = {}
        for n, source, kind, path, job in jobs:
            r = job.result()
            counts[r["status"]] += 1
            by_kind.setdefault(kind, {}).setdefault(r["status"], 0)
            by_kind[kind][r["status"]] += 1
            out = path + ".out.mlir"
            if os.path.exists(out):
                os.remove(out)
            if r["status"] == "crash":
                crashes.append({"mutant": os.path.relpath(path, args.work),
                                "source": source, "kind": kind,
                                "error": r["error"]})
            else:
                os.remove(path)
    report = {"mutants": args.mutants, "seed": args.seed, "counts": counts,
              "by_kind": by_kind, "crashes": crashes}
    with open(os.path.join(args.work, "fuzz.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for c in crashes:
        print("crash %s (%s of %s): %s" % (c["mutant"], c["kind"], c["source"],
                                            c["error"]))
    print("%d mutants: %d compiled, %d rejected, %d crashes" % (
        args.mutants, counts["compiled"], counts["rejected"], counts["crash"]))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
