"""Exports each problem file given, emits its plans as Triton modules
(qimeng-opt --qimeng-emit-triton) under argv[1], and runs them in Triton's
interpreter against QiMeng's CPU build of the same linalg module; prints one
line per problem. One process for all: torch and torch-mlir load once."""

import os
import subprocess
import sys
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported

import qimeng.torch as qt  # noqa: E402
from qimeng import _tools  # noqa: E402
from qimeng import triton as qtriton  # noqa: E402

out = Path(sys.argv[1])
for path in sys.argv[2:]:
    problem = qt.load_problem(path)
    folder = out / problem.name
    folder.mkdir(parents=True, exist_ok=True)
    mlir = folder / "model.mlir"
    mlir.write_text(qt.export_problem(problem).mlir)
    proc = subprocess.run(
        [str(_tools.qimeng_opt()), str(mlir), "--llm-plan", "--tuning-db=off",
         f"--qimeng-emit-triton={folder / 'triton'}", "-o", os.devnull],
        stderr=subprocess.PIPE, text=True)
    skipped = [l.split("warning: ")[1] for l in proc.stderr.splitlines()
               if "not emitted to Triton" in l]
    if proc.returncode or skipped:
        print(f"{problem.name}: not emitted: {skipped or proc.stderr[-300:]}")
        continue
    check = subprocess.run(
        [sys.executable, "-m", "qimeng.triton", "check", str(folder / "triton"),
         "--mlir", str(mlir)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    result = (check.stdout.strip() or check.stderr.strip()[-300:])
    print(f"{problem.name}: {result.split(': ', 1)[-1]}")
