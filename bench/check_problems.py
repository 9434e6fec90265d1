#!/usr/bin/env python3
"""Checks the benchmark suite without a GPU (CI): every problem file has a
registry entry and the other way round, each entry's inputs and output match
its MLIR function's signature, and each problem compiles to PTX with the
default pipeline.

    check_problems.py --qimeng-opt PATH [--no-compile]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import problems as registry  # noqa: E402

DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16",
          "bfloat16": "bf16", "int64": "i64", "int32": "i32"}


def tensor_type(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [DTYPES[dtype]])


def signature(text, entry):
    """The argument types and result types of @entry, as written."""
    match = re.search(r"func\.func\s+@%s\s*\((.*?)\)\s*->\s*([^{]+)\{" %
                      re.escape(entry), text, re.S)
    if not match:
        return None, None
    args = re.findall(r"%\w+\s*:\s*(tensor<[^>]*>)", match.group(1))
    results = re.findall(r"tensor<[^>]*>", match.group(2))
    return args, results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qimeng-opt", required=True)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    problems_dir = os.path.join(HERE, "problems")
    files = sorted(os.path.relpath(p, problems_dir) for p in
                   glob.glob(os.path.join(problems_dir, "level*", "*.mlir")) +
                   glob.glob(os.path.join(problems_dir, "current", "*.mlir")))
    errors = []
    names = [p.name for p in registry.PROBLEMS]
    if len(set(names)) != len(names):
        errors.append("duplicate problem names")
    listed = sorted(p.mlir for p in registry.PROBLEMS)
    for missing in sorted(set(files) - set(listed)):
        errors.append("%s has no registry entry" % missing)
    for missing in sorted(set(listed) - set(files)):
        errors.append("the registry names %s, which does not exist" % missing)
    levels = {1: 0, 2: 0}
    for problem in registry.PROBLEMS:
        levels[problem.level] = levels.get(problem.level, 0) + 1
        path = os.path.join(problems_dir, problem.mlir)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
        arg_types, result_types = signature(text, problem.entry)
        if arg_types is None:
            errors.append("%s: no func.func @%s with tensor results" % (
                problem.name, problem.entry))
            continue
        want = [tensor_type(i.shape, i.dtype) for i in problem.inputs]
        out = tensor_type(problem.output.shape, problem.output.dtype)
        if not problem.returned:
            want = want + [out]
        if arg_types != want or result_types != [out]:
            errors.append("%s: @%s is (%s) -> %s; the registry says (%s) -> %s"
                          % (problem.name, problem.entry, ", ".join(arg_types),
                             ", ".join(result_types), ", ".join(want), out))
        if problem.flops <= 0 or problem.bytes <= 0:
            errors.append("%s: flops and bytes must be positive" % problem.name)
        if not args.no_compile:
            proc = subprocess.run([args.qimeng_opt, path, "--llm-plan",
                                   "--lower-to-nvvm", "-o", os.devnull],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                errors.append("%s: does not compile: %s" % (
                    problem.name, proc.stderr.strip().splitlines()[-1]))
    for error in errors:
        print("error: " + error)
    returned = sum(1 for p in registry.PROBLEMS if p.returned)
    if 3 * returned < len(registry.PROBLEMS):
        errors.append("only %d of %d problems return a result they build; "
                      "a third or more should" % (returned,
                                                  len(registry.PROBLEMS)))
    print("%d problems (level 1: %d, level 2: %d; %d return their result), "
          "%d errors" % (len(registry.PROBLEMS), levels.get(1, 0),
                         levels.get(2, 0), returned, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
