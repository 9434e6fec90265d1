#!/usr/bin/env python3
"""Runs examples with qimeng-run on the GPU and checks its .npy outputs
against the PyTorch references of gpu_check.py.

A bridge until the verifier of issue 4 compares against its own reference:
it shows that qimeng-run (compile, JIT host code, QiMeng's CUDA runtime)
computes the right results. Needs PyTorch and numpy on the GPU machine.

Usage: run_check.py QIMENG_RUN OUT_DIR EXAMPLE.mlir...
"""
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_check import compare_outputs, reference_of  # noqa: E402


def main():
    tool, out = sys.argv[1], sys.argv[2]
    failures = 0
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    for path in sys.argv[3:]:
        name = os.path.basename(path)[:-len(".mlir")]
        directory = os.path.join(out, name)
        run = subprocess.run([tool, path, "--seed=1", "--repeat=3",
                              f"--output-dir={directory}"],
                             capture_output=True, text=True, timeout=300)
        summary = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        if run.returncode != 0:
            failures += 1
            print(f"{name:28} ERROR  {summary}")
            continue
        args = []
        i = 0
        while os.path.exists(os.path.join(directory, f"arg{i}.npy")):
            args.append(torch.from_numpy(np.load(os.path.join(directory, f"arg{i}.npy"))).cuda())
            i += 1
        expected = reference_of(name)(*[a.clone() for a in args])
        ok, worst = compare_outputs(args, expected)
        failures += not ok
        print(f"{name:28} {'PASS' if ok else 'FAIL':6} {worst:10.2e}  {summary}")
        sys.stdout.flush()
    print(f"{len(sys.argv) - 3 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
