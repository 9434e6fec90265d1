"""Exports and compiles each problem file given for sm_90 (PTX), into
artifact directories under argv[1]; prints each one's kernel launches.
One process for all: torch and torch-mlir load once."""

import sys
from pathlib import Path

import qimeng.torch as qt

out = Path(sys.argv[1])
for path in sys.argv[2:]:
    problem = qt.load_problem(path)
    try:
        exported = qt.export_problem(problem)
        art = qt.compile(exported, out / (problem.name + ".qimeng"), fmt="isa")
    except (qt.ExportError, RuntimeError) as e:
        print(f"{problem.name}: failed: {e}")
        continue
    text = (art / "model.gpu.mlir").read_text()
    print(f"{problem.name}: {text.count('gpu.launch_func')} launch(es), "
          f"{text.count('gpu.binary')} binary(ies)")
